import ScenarioFormat

/// The platforms the bench knows, in the order its lists and `bench compare`
/// give them. A new platform is one entry in `standard`; a test may build a
/// registry with a stand-in of its own.
public struct PlatformRegistry: Sendable {
  public let plugins: [any Platform.Type]

  public init(_ plugins: [any Platform.Type]) {
    self.plugins = plugins
  }

  /// The six platforms whose SDKs the bench reproduces (docs/platforms.md).
  public static let standard = PlatformRegistry([
    OptimizelyPlatform.self, GrowthBookPlatform.self, LaunchDarklyPlatform.self, StatsigPlatform.self, EppoPlatform.self,
    UnleashPlatform.self,
  ])

  /// What a scenario may name, in order.
  public var traits: [PlatformTraits] { plugins.map { $0.traits } }

  /// The names, in order, e.g. for a flag's help.
  public var names: [String] { plugins.map { $0.traits.name } }

  /// The plug-in named `name` (a scenario's `service.framework`, `--framework`).
  public func plugin(named name: String) -> (any Platform.Type)? {
    plugins.first { $0.traits.name == name }
  }
}
