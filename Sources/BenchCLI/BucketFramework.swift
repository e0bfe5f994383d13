import ArgumentParser
import Bucketing
import Foundation
import JSONDocument

/// A service `bench bucket` and `bench impact` read: its configuration file
/// and its decisions for ids, as the vendor's SDK makes them.
package enum BucketFramework: String, ExpressibleByArgument, CaseIterable {
  case optimizely, growthbook, launchdarkly, statsig, eppo, unleash

  /// What `--config` holds for this service.
  var configName: String {
    switch self {
    case .optimizely: "an Optimizely datafile"
    case .growthbook: "a GrowthBook features payload"
    case .launchdarkly: "LaunchDarkly flag data ({\"flags\", \"segments\"})"
    case .statsig: "a Statsig download_config_specs response (v1)"
    case .eppo: "an Eppo universal flag configuration"
    case .unleash: "an Unleash client features response"
    }
  }

  /// The decisions for every id and row of `config`, and what the file's
  /// author should hear about it once.
  package struct Decisions {
    package let lines: [BucketDecisions.Line]
    package let problems: [String]
  }

  /// Reads `config` (the service's own file, unchanged) and decides for `ids`
  /// with `attributes` (the `--attributes` object). Without `flags`,
  /// Optimizely's feature flags are left out: their rows are not experiments.
  package func decide(config: Data, ids: [String], attributes: String, flags: Bool = true) throws -> Decisions {
    switch self {
    case .optimizely:
      let datafile = try OptimizelyDatafile(json: config)
      return Decisions(
        lines: BucketDecisions.optimizely(datafile, ids: ids, attributes: try Bench.Bucket.attributes(attributes), flags: flags),
        problems: datafile.problems)
    case .growthbook:
      let payload = try GrowthBookPayload(json: config)
      return Decisions(
        lines: BucketDecisions.growthBook(payload, ids: ids, attributes: try Bench.Bucket.attributes(attributes)),
        problems: payload.problems)
    case .launchdarkly:
      try checkAttributes(attributes)
      let members = try Self.jsonAttributes(attributes)
      let data = try LaunchDarklyFlagData(json: config)
      return Decisions(lines: BucketDecisions.launchDarkly(data, ids: ids, attributes: members), problems: data.problems)
    case .unleash:
      let features = try UnleashFeatures(json: config)
      return Decisions(
        lines: BucketDecisions.unleash(features, ids: ids, attributes: try Self.jsonAttributes(attributes), now: Date()),
        problems: features.problems)
    case .eppo:
      try checkAttributes(attributes)
      let configuration = try EppoConfiguration(json: config)
      // Null counts as absent, as the SDK's attributes read it.
      let members = try Self.jsonAttributes(attributes).filter { $0.value != .null }
      return Decisions(
        lines: BucketDecisions.eppo(configuration, ids: ids, attributes: members, now: Date()), problems: configuration.problems)
    case .statsig:
      try checkAttributes(attributes)
      let specs = try StatsigSpecs(json: config)
      let members = try Self.jsonAttributes(attributes)
      return Decisions(lines: BucketDecisions.statsig(specs, ids: ids, attributes: members, now: Date()), problems: specs.problems)
    }
  }

  /// Refuses `--attributes` that are not a JSON object, or that give this
  /// service's context something it cannot hold, naming the member and the fix.
  package func checkAttributes(_ text: String) throws {
    let members = try Self.jsonAttributes(text)
    switch self {
    case .optimizely, .growthbook, .unleash:
      return
    case .launchdarkly:
      if let name = ["key", "kind", "_meta", "anonymous"].first(where: { members[$0] != nil }) {
        throw ValidationError(
          "--attributes: '\(name)' is not an attribute of a LaunchDarkly context (the key is the id, the kind is \"user\"): remove it")
      }
    case .eppo:
      for (name, value) in members.sorted(by: { $0.key < $1.key }) {
        if case .array = value { throw ValidationError("--attributes: '\(name)' is an array; Eppo's subject attributes hold strings, numbers and booleans") }
        if case .object = value { throw ValidationError("--attributes: '\(name)' is an object; Eppo's subject attributes hold strings, numbers and booleans") }
      }
    case .statsig:
      if members["userID"] != nil {
        throw ValidationError("--attributes: 'userID' is the id: give it as an argument, not in --attributes")
      }
      for name in ["custom", "privateAttributes", "customIDs"] where members[name].map({ $0.object == nil && $0 != .null }) ?? false {
        throw ValidationError("--attributes: '\(name)' must be an object, e.g. {\"\(name)\": {\"plan\": \"pro\"}}")
      }
    }
  }

  /// `--attributes` as JSON values that keep integers apart from other numbers.
  static func jsonAttributes(_ text: String) throws -> [String: JSONValue] {
    _ = try Bench.Bucket.attributes(text)
    guard case .object(let members) = try JSONValue.parse(Data(text.utf8)) else {
      throw ValidationError("--attributes must be a JSON object")
    }
    return members
  }
}
