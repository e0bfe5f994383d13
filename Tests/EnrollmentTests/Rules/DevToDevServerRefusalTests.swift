import Enrollment
import Testing

/// docs/rules/DevToDevServerRefusal.md: "The Server refused to conduct the
/// test": after `onPrepareToChange` the server answers that the device cannot
/// take part; `onChanged` reports a failure and nothing is applied, whatever
/// the app would decide.
@Suite struct DevToDevServerRefusalTests {
  private let settings = DevToDevHandshake.Settings(remoteConfigWaiting: 10)

  private func launch(offer: Double?, interruption: Double? = nil, applies: Bool = true)
    -> (callbacks: [DevToDevHandshake.Callback], outcome: DevToDevHandshake.Outcome)
  {
    DevToDevHandshake.launch(
      settings,
      timing: .init(configuration: 1, testFound: true, groupDefinition: 1, offer: offer, interruption: interruption),
      appliesOffer: applies)
  }

  @Test func aRefusalIsAFailedChangeAndNothingIsApplied() {
    for applies in [true, false] {
      let refused = launch(offer: nil, applies: applies)
      #expect(refused.callbacks == [.onReceived(.success), .onPrepareToChange, .onChanged(.failure)])
      #expect(refused.outcome == .serverRefused)
    }
    // Told apart from an offer that comes too late, which fails the same way.
    #expect(launch(offer: 30.5).outcome == .offerTimedOut)
    #expect(launch(offer: 30).outcome == .applied)
  }

  /// An interruption after the group is defined does not turn a refusal
  /// into a cancellation: the server's answer needs no wait to be known as
  /// a refusal in the bench's model, and the funnel counts it as such.
  @Test func aRefusalIsCountedAsARefusalEvenWhenTheAppLaterGoesToTheBackground() {
    #expect(launch(offer: nil, interruption: 5).outcome == .serverRefused)
    #expect(launch(offer: 4, interruption: 5).outcome == .cancelled)
  }
}
