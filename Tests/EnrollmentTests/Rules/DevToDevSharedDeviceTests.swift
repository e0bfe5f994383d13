import Enrollment
import Testing

/// docs/rules/DevToDevSharedDevice.md: a switch to a user who started the
/// test gives it back with success; a switch to one who had not announces a
/// change and leaves the defaults until that user's own handshake.
@Suite struct DevToDevSharedDeviceTests {
  @Test func aReturningUserHasTheTestBackAndANewOneStartsAfresh() {
    #expect(DevToDevHandshake.switchUser(toUserWhoStartedTheTest: true) == [.onPrepareToChange, .onChanged(.success)])
    #expect(DevToDevHandshake.switchUser(toUserWhoStartedTheTest: false) == [.onPrepareToChange])
  }

  /// The new user's handshake is the one every user goes through.
  @Test func theNewUsersHandshakeIsAnOrdinaryOne() {
    let timing = DevToDevHandshake.Timing(configuration: 1, testFound: true, groupDefinition: 1, offer: 2, interruption: nil)
    let launch = DevToDevHandshake.launch(DevToDevHandshake.Settings(), timing: timing, appliesOffer: true)
    #expect(launch.outcome == .applied)
    #expect(launch.callbacks == [.onReceived(.success), .onPrepareToChange, .onChanged(.success)])
  }
}
