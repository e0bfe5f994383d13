// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A source of experiments run on a remote service, such as Taplytics.
///
/// Each successful fetch brings the service's configuration and the variant the
/// service gives this device in each experiment; `apply(_:assignments:)` takes it by
/// `RemoteRules`. Until stabilized the device follows the service; once
/// stabilized it keeps its variants and values for good, exposes no new
/// experiment, and only the keys an `__Override_<experiment>` variable lists
/// follow the service. A failed fetch is simply not applied: the device keeps
/// its last data, or the app's defaults when it has none.
public struct RemoteSource: StabilizingSource {
  public let name: String
  /// The app's value for each key when no experiment supplies one; their
  /// types are the types the service's values must have.
  public let defaults: [String: AssignmentValue]
  public private(set) var isStabilized: Bool
  /// What the device holds of each experiment, by name.
  public private(set) var stored: [String: StoredExperiment]
  /// What the last fetch could not use.
  public private(set) var lastFetch = FetchReport()
  /// Every experiment the service's configuration held at the last fetch,
  /// with all its variants, for the debug screen; empty until a fetch.
  public private(set) var catalogue: [Experiment] = []
  private let storage: any LabStorage

  /// One experiment as the device holds it.
  public struct StoredExperiment: Hashable, Sendable, Codable {
    public var variant: String
    /// The values the device uses, by key.
    public var values: [String: AssignmentValue]
    /// The experiment's keys, as its `__Keys_` variable declared them.
    public var keys: [String]

    public init(variant: String, values: [String: AssignmentValue], keys: [String]) {
      self.variant = variant
      self.values = values
      self.keys = keys
    }
  }

  /// The problems of one fetch, for the app's log and the bench's counts.
  public struct FetchReport: Hashable, Sendable {
    /// Experiments with no valid `__Keys_` declaration, and why.
    public var unrecognised: [String: RemoteDeclarationError] = [:]
    /// "experiment.key" pairs that fell back to the default, and why.
    public var fallbacks: [String: RemoteRules.Fallback] = [:]
    /// "experiment.key" pairs a stabilized device took from the service by override.
    public var overridden: [String] = []
  }

  /// Restores what the device stored at earlier launches.
  ///
  /// - Throws: `StorageError` for a record it cannot read.
  public init(defaults: [String: AssignmentValue], storage: any LabStorage, name: String = "Remote") throws {
    self.name = name
    self.defaults = defaults
    self.storage = storage
    isStabilized = storage.value(forKey: Self.stabilizedKey) == "true"
    var stored: [String: StoredExperiment] = [:]
    for key in storage.keys(withPrefix: Self.experimentPrefix) {
      let text = storage.value(forKey: key)!
      guard let experiment = try? JSONDecoder().decode(StoredExperiment.self, from: Data(text.utf8)) else {
        throw StorageError(key: key, value: text, expected: "a stored remote experiment")
      }
      stored[String(key.dropFirst(Self.experimentPrefix.count))] = experiment
    }
    self.stored = stored
  }

  /// Takes a successful fetch.
  ///
  /// - Parameters:
  ///   - configuration: the service's configuration.
  ///   - assignments: the variant the service gives this device, by experiment.
  public mutating func apply(_ configuration: RemoteConfiguration, assignments: [String: String]) throws {
    var report = FetchReport()
    var recognised: [String: [String]] = [:]
    for experiment in configuration.experiments {
      do {
        recognised[experiment.name] = try configuration.declaredKeys(of: experiment.name)
      } catch {
        report.unrecognised[experiment.name] = error
      }
    }
    let names = Set(recognised.keys).union(stored.keys).sorted()
    for name in names {
      let definition = recognised[name] != nil ? configuration.experiment(named: name) : nil
      let variant = definition != nil ? assignments[name] : nil
      switch RemoteRules.update(isStabilized: isStabilized, isStored: stored[name] != nil, isDelivered: variant != nil) {
      case .take:
        let keys = recognised[name]!
        let values = definition!.variants.first { $0.name == variant }?.values ?? [:]
        stored[name] = StoredExperiment(
          variant: variant!, values: resolve(keys, of: name, from: values, report: &report), keys: keys)
      case .drop:
        stored[name] = nil
      case .keep:
        guard let definition, let values = definition.variants.first(where: { $0.name == stored[name]!.variant })?.values
        else { continue }
        let live = configuration.overriddenKeys(of: name).filter(stored[name]!.keys.contains)
        for (key, value) in resolve(live, of: name, from: values, report: &report) {
          stored[name]!.values[key] = value
          report.overridden.append("\(name).\(key)")
        }
      case .ignore:
        continue
      }
    }
    lastFetch = report
    catalogue = recognised.keys.sorted().compactMap { name in
      configuration.experiment(named: name).flatMap { catalogueEntry($0, keys: recognised[name]!) }
    }
    try persist()
  }

  /// An experiment of the configuration as the debug screen lists it: every
  /// variant, with the values a device would hold, on the keys that every
  /// variant resolves; the service's percentages are not Lab weights, so each
  /// variant weighs 1.
  private func catalogueEntry(_ experiment: RemoteExperiment, keys: [String]) -> Experiment? {
    var ignored = FetchReport()
    let variants = experiment.variants.map { variant in
      (name: variant.name, values: resolve(keys, of: experiment.name, from: variant.values, report: &ignored))
    }
    let served = keys.filter { key in variants.allSatisfy { $0.values[key] != nil } }
    return try? Experiment(
      name: experiment.name, keys: served,
      variants: variants.map { variant in
        Variant(name: variant.name, assignments: variant.values.filter { served.contains($0.key) })
      })
  }

  public mutating func stabilizeUserExperience() throws {
    isStabilized = true
    try storage.setValue("true", forKey: Self.stabilizedKey)
  }

  /// The service's catalogue from the last fetch, then every experiment the
  /// device holds that the catalogue lacks (a stabilized device keeps an
  /// experiment the service dropped), each with the variant it holds.
  public var experiments: [Experiment] {
    let listed = Set(catalogue.map(\.name))
    return catalogue + stored.keys.sorted().filter { !listed.contains($0) }.compactMap { name in
      let held = stored[name]!
      return try? Experiment(
        name: name, keys: held.keys.filter { held.values[$0] != nil },
        variants: [Variant(name: held.variant, assignments: held.values)])
    }
  }

  public var activeVariants: [ActiveVariant] {
    stored.keys.sorted().map { name in
      ActiveVariant(experiment: name, variant: Variant(name: stored[name]!.variant, assignments: stored[name]!.values), source: self.name)
    }
  }

  /// Each key's value by `RemoteRules.value`, noting every fallback.
  private func resolve(
    _ keys: [String], of experiment: String, from values: [String: RemoteValue], report: inout FetchReport
  ) -> [String: AssignmentValue] {
    var resolved: [String: AssignmentValue] = [:]
    for key in keys {
      let (value, fallback) = RemoteRules.value(delivered: values[key], default: defaults[key])
      if let fallback { report.fallbacks["\(experiment).\(key)"] = fallback }
      resolved[key] = value
    }
    return resolved
  }

  private func persist() throws {
    for key in storage.keys(withPrefix: Self.experimentPrefix)
    where stored[String(key.dropFirst(Self.experimentPrefix.count))] == nil {
      try storage.setValue(nil, forKey: key)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    for (name, experiment) in stored {
      try storage.setValue(String(decoding: try encoder.encode(experiment), as: UTF8.self), forKey: Self.experimentPrefix + name)
    }
  }

  private static let stabilizedKey = StorageKey.remoteStabilized
  private static let experimentPrefix = StorageKey.remoteExperimentPrefix
}
