import Enrollment
import Lab
import LabTestKit
import Foundation
import Testing

/// docs/rules/DevToDevHandshake.md: the callbacks and outcome of one launch
/// for each step that can fail, and the share enrolled after k launches.
@Suite struct DevToDevHandshakeTests {
  private let settings = DevToDevHandshake.Settings(remoteConfigWaiting: 10)

  private func timing(
    configuration: Double? = 1, testFound: Bool = true, group: Double = 2, offer: Double? = 3, interruption: Double? = nil
  ) -> DevToDevHandshake.Timing {
    .init(configuration: configuration, testFound: testFound, groupDefinition: group, offer: offer, interruption: interruption)
  }

  @Test func everyStepThatCanFail() {
    func outcome(_ timing: DevToDevHandshake.Timing, settings: DevToDevHandshake.Settings? = nil, applies: Bool = true)
      -> ([DevToDevHandshake.Callback], DevToDevHandshake.Outcome)
    {
      let result = DevToDevHandshake.launch(settings ?? self.settings, timing: timing, appliesOffer: applies)
      return (result.callbacks, result.outcome)
    }
    #expect(outcome(timing()) == ([.onReceived(.success), .onPrepareToChange, .onChanged(.success)], .applied))
    #expect(outcome(timing(), applies: false).1 == .refused)
    #expect(outcome(timing(configuration: 12)) == ([.onReceived(.failure)], .configurationTimedOut))
    #expect(outcome(timing(configuration: nil)) == ([.onReceived(.failure)], .configurationTimedOut))
    // Unlimited by default: a configuration after 12 s still arrives.
    #expect(outcome(timing(configuration: 12), settings: DevToDevHandshake.Settings()).1 == .applied)
    #expect(outcome(timing(testFound: false)) == ([.onReceived(.empty)], .noTest))
    #expect(outcome(timing(group: 11)) == ([.onReceived(.success)], .groupTimedOut))
    #expect(outcome(timing(offer: 31)) == ([.onReceived(.success), .onPrepareToChange, .onChanged(.failure)], .offerTimedOut))
    #expect(outcome(timing(offer: nil)) == ([.onReceived(.success), .onPrepareToChange, .onChanged(.failure)], .serverRefused))
    #expect(outcome(timing(interruption: 4)) == ([.onReceived(.success), .onPrepareToChange, .onChanged(.failure)], .cancelled))
    #expect(outcome(timing(interruption: 0.5)) == ([], .cancelled))
  }

  /// With a chance q per launch that the device goes to the background
  /// during the wait, the share enrolled after k launches is 1 − qᵏ.
  @Test func theShareEnrolledAfterKLaunchesIsOneMinusQToTheK() {
    var random = SeededGenerator(seed: 5)
    let q = 0.4, devices = 20_000
    var enrolledBy = Array(repeating: 0, count: 4)
    for _ in 0..<devices {
      for launch in 0..<4 {
        let backgrounded = Double(random.next() >> 11) * 0x1p-53 < q
        let result = DevToDevHandshake.launch(
          DevToDevHandshake.Settings(), timing: timing(interruption: backgrounded ? 2 : nil), appliesOffer: true)
        if result.outcome == .applied {
          for later in launch..<4 { enrolledBy[later] += 1 }
          break
        }
      }
    }
    for k in 1...4 {
      let p = 1 - Foundation.pow(q, Double(k))
      #expect(abs(Double(enrolledBy[k - 1]) - Double(devices) * p) < 4.5 * (Double(devices) * p * (1 - p)).squareRoot(), "k = \(k)")
    }
  }

  /// "SDK will not use new variable values that are not set in DTDRemoteConfig.defaults."
  @Test func variablesOutsideTheDefaultsAreNeverUsed() {
    var config = DevToDevRemoteConfig(defaults: ["button_color": .string("green"), "button_size": .string("8")])
    #expect(config.config == ["button_color": .string("green"), "button_size": .string("8")])
    config.apply(group: "Group A", values: ["button_color": .string("blue"), "button_shape": .string("round")])
    #expect(config.config == ["button_color": .string("blue"), "button_size": .string("8")])
    #expect(config.group == "Group A")
    #expect(config.usableKeys(["button_color", "button_shape"]) == ["button_color"])
  }
}
