import Enrollment
import Testing

/// docs/rules/DevToDevUserChange.md: "In the process of receiving an offer
/// from the server, the user was changed. Offer has been canceled": a switch
/// of user while the offer is awaited fails the change.
@Suite struct DevToDevUserChangeTests {
  private func launch(userChanges: Bool, offer: Double? = 2, testFound: Bool = true, configuration: Double? = 1)
    -> (callbacks: [DevToDevHandshake.Callback], outcome: DevToDevHandshake.Outcome)
  {
    DevToDevHandshake.launch(
      DevToDevHandshake.Settings(remoteConfigWaiting: 10),
      timing: .init(
        configuration: configuration, testFound: testFound, groupDefinition: 1, offer: offer, interruption: nil,
        userChangesDuringOffer: userChanges),
      appliesOffer: true)
  }

  @Test func aUserChangeWhileTheOfferIsAwaitedCancelsIt() {
    let changed = launch(userChanges: true)
    #expect(changed.callbacks == [.onReceived(.success), .onPrepareToChange, .onChanged(.failure)])
    #expect(changed.outcome == .userChanged)
    // The change comes before the server's answer, whatever it would have been.
    #expect(launch(userChanges: true, offer: nil).outcome == .userChanged)
    #expect(launch(userChanges: false).outcome == .applied)
  }

  /// Only a launch that reached the offer has one to lose.
  @Test func aLaunchThatNeverReachedTheOfferEndsAsBefore() {
    #expect(launch(userChanges: true, testFound: false).outcome == .noTest)
    #expect(launch(userChanges: true, configuration: nil).outcome == .configurationTimedOut)
  }
}
