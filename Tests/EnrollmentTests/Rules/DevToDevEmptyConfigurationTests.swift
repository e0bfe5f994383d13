import Enrollment
import Testing

/// docs/rules/DevToDevEmptyConfiguration.md: "Empty if the configuration was
/// loaded in the time provided, but the list of experiments is empty": no
/// `onPrepareToChange`, no test at that launch.
@Suite struct DevToDevEmptyConfigurationTests {
  @Test func anEmptyConfigurationEndsTheLaunchWithoutATest() {
    let settings = DevToDevHandshake.Settings(remoteConfigWaiting: 10)
    let empty = DevToDevHandshake.launch(
      settings, timing: .init(configuration: 2, testFound: false, groupDefinition: 1, offer: 1, interruption: nil),
      appliesOffer: true)
    #expect(empty.callbacks == [.onReceived(.empty)])
    #expect(empty.outcome == .noTest)
    // Late, it is a failure to receive, not an empty one.
    let late = DevToDevHandshake.launch(
      settings, timing: .init(configuration: 11, testFound: false, groupDefinition: 1, offer: 1, interruption: nil),
      appliesOffer: true)
    #expect(late.callbacks == [.onReceived(.failure)])
    #expect(late.outcome == .configurationTimedOut)
  }

  /// What the app uses meanwhile is its defaults: "DTDRemoteConfig.config
  /// will return default values".
  @Test func theAppKeepsItsDefaults() {
    let config = DevToDevRemoteConfig(defaults: ["button_color": .string("green")])
    #expect(config.config == ["button_color": .string("green")])
    #expect(config.group == nil)
  }
}
