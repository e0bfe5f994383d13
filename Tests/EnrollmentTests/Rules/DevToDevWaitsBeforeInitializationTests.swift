import Enrollment
import Testing

/// docs/rules/DevToDevWaitsBeforeInitialization.md: "The
/// DTDRemoteConfig.remoteConfigWaiting and
/// DTDRemoteConfig.groupDefinitionWaiting values can be set only prior to
/// SDK initialization!"
@Suite struct DevToDevWaitsBeforeInitializationTests {
  @Test func waitsSetBeforeInitializingAreUsed() {
    var sdk = DevToDevInitialization()
    let took = (sdk.setRemoteConfigWaiting(5), sdk.setGroupDefinitionWaiting(15))
    #expect(took == (true, true))
    sdk.initializeWithAbTest()
    #expect(sdk.settings == DevToDevHandshake.Settings(remoteConfigWaiting: 5, groupDefinitionWaiting: 15))
  }

  @Test func waitsSetAfterInitializingAreIgnored() {
    var sdk = DevToDevInitialization()
    sdk.initializeWithAbTest()
    let took = (sdk.setRemoteConfigWaiting(5), sdk.setGroupDefinitionWaiting(15))
    #expect(took == (false, false))
    // The SDK's defaults: no limit for the configuration, 10 s for a group.
    #expect(sdk.settings == DevToDevHandshake.Settings())
    #expect(sdk.settings.remoteConfigWaiting == nil && sdk.settings.groupDefinitionWaiting == 10)
  }

  /// Set too late, a 5 s wait does not stop a configuration that takes 12 s.
  @Test func aLateWaitLetsASlowConfigurationThrough() {
    let wanted = DevToDevHandshake.Settings(remoteConfigWaiting: 5)
    let timing = DevToDevHandshake.Timing(configuration: 12, testFound: true, groupDefinition: 1, offer: 1, interruption: nil)
    let early = DevToDevInitialization.settings(wanted, setBeforeInitialization: true)
    let late = DevToDevInitialization.settings(wanted, setBeforeInitialization: false)
    #expect(DevToDevHandshake.launch(early, timing: timing, appliesOffer: true).outcome == .configurationTimedOut)
    #expect(DevToDevHandshake.launch(late, timing: timing, appliesOffer: true).outcome == .applied)
  }
}
