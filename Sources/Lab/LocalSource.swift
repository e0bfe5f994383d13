// SPDX-License-Identifier: Apache-2.0

/// A source of experiments compiled into the app.
///
/// At creation it decides every experiment on the device (`LocalDecision`):
/// active when the token falls in the experiment's range, with a variant drawn
/// by weight, and it persists only the activity status and the variant's name.
/// Records of experiments this version no longer defines are deleted. The
/// source ignores stabilization: it does not conform to `StabilizingSource`.
public struct LocalSource: AssignmentsSource {
  public let name: String
  public let experiments: [Experiment]
  public let token: ActiveExperimentsToken
  /// The decision for each experiment, in the order of `experiments`.
  public let decisions: [LocalDecision]

  /// Decides and persists every experiment.
  ///
  /// - Parameters:
  ///   - random: draws the variant of an experiment decided afresh, in the
  ///     order of `experiments`.
  ///   - name: the source name analytics events carry.
  /// - Throws: `LocalSourceError` for two experiments with one name,
  ///   `StorageError` for a record it cannot read, and the storage's errors.
  public init(
    experiments: [Experiment],
    token: ActiveExperimentsToken,
    storage: any LabStorage,
    random: inout some RandomNumberGenerator,
    name: String = "Local"
  ) throws {
    var names = Set<String>()
    for experiment in experiments where !names.insert(experiment.name).inserted {
      throw LocalSourceError.duplicateExperiment(experiment.name)
    }
    for key in storage.keys(withPrefix: StorageKey.localSourcePrefix)
    where !names.contains(String(key.dropFirst(StorageKey.localSourcePrefix.count))) {
      try storage.setValue(nil, forKey: key)
    }
    var decisions: [LocalDecision] = []
    for experiment in experiments {
      let key = StorageKey.localSource(experiment: experiment.name)
      let recall = try LocalRecord.recall(storage.value(forKey: key), key: key, in: experiment)
      let decision = LocalDecision.decide(recall: recall, range: experiment.activeTokenRange, token: token) {
        WeightedSelection(experiment).select(bits: random.next())
      }
      try storage.setValue(LocalRecord.encode(decision, in: experiment), forKey: key)
      decisions.append(decision)
    }
    self.name = name
    self.experiments = experiments
    self.token = token
    self.decisions = decisions
  }

  public var activeVariants: [ActiveVariant] {
    zip(experiments, decisions).compactMap { experiment, decision in
      decision.variant.map {
        ActiveVariant(experiment: experiment.name, variant: experiment.variants[$0], source: name)
      }
    }
  }
}

/// Why a local source cannot be created.
public enum LocalSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  case duplicateExperiment(String)

  public var description: String {
    switch self {
    case .duplicateExperiment(let name):
      return "two local experiments are named \(name): rename one, names identify experiments on devices"
    }
  }
}

/// How a local decision is written to storage: `inactive`, or `active:` and the
/// variant's name. Names, not indexes, so that the record survives a version
/// that reorders variants.
enum LocalRecord {
  static let inactive = "inactive"
  static let activePrefix = "active:"

  static func encode(_ decision: LocalDecision, in experiment: Experiment) -> String {
    switch decision {
    case .inactive: return inactive
    case .active(let index): return activePrefix + experiment.variants[index].name
    }
  }

  static func recall(_ stored: String?, key: String, in experiment: Experiment) throws -> LocalRecall {
    guard let stored else { return .nothing }
    if stored == inactive { return .inactive }
    guard stored.hasPrefix(activePrefix) else {
      throw StorageError(key: key, value: stored, expected: "'inactive' or 'active:<variant>'")
    }
    let variant = String(stored.dropFirst(activePrefix.count))
    return experiment.variantIndex(named: variant).map(LocalRecall.variant) ?? .deletedVariant
  }
}
