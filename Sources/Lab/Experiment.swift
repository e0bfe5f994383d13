// SPDX-License-Identifier: Apache-2.0

/// A set of keys, the variants that supply a value for each of them, and the
/// baseline that says how the app behaves when the experiment is not active.
///
/// An `Experiment` is valid by construction: every variant supplies every key
/// and no other, weights are positive, names are unique and the baseline is one
/// of the variants. Naming conventions are checked separately, under a
/// `NamingPolicy`, because the framework's own examples break them.
public struct Experiment: Hashable, Sendable {
  public let name: String
  /// The keys in the order they were declared.
  public let keys: [String]
  /// The variants in the order they were declared; selection follows this order.
  public let variants: [Variant]
  /// The name of the variant the app behaves like when the experiment is not active.
  public let baseline: String
  /// The tokens for which the experiment is active.
  public let activeTokenRange: TokenRange

  /// - Parameters:
  ///   - baseline: defaults to the first variant, as in the doc's examples.
  ///   - activeTokenRange: defaults to all of [0, 1].
  /// - Throws: `ExperimentError` naming the first field that breaks a rule.
  public init(
    name: String,
    keys: [String],
    variants: [Variant],
    baseline: String? = nil,
    activeTokenRange: TokenRange = .all
  ) throws(ExperimentError) {
    func fail(_ field: ExperimentError.Field, _ problem: String) -> ExperimentError {
      ExperimentError(experiment: name, field: field, problem: problem)
    }
    guard !name.isEmpty else { throw fail(.name, "must not be empty") }
    guard !keys.isEmpty else { throw fail(.keys, "must list at least one key") }
    var seenKeys = Set<String>()
    for (index, key) in keys.enumerated() {
      guard !key.isEmpty else { throw fail(.key(index), "must not be empty") }
      guard seenKeys.insert(key).inserted else { throw fail(.key(index), "'\(key)' is listed twice") }
    }
    guard !variants.isEmpty else { throw fail(.variants, "must list at least one variant") }
    var seenVariants = Set<String>()
    var totalWeight = 0
    for (index, variant) in variants.enumerated() {
      guard !variant.name.isEmpty else { throw fail(.variantName(index), "must not be empty") }
      guard seenVariants.insert(variant.name).inserted else {
        throw fail(.variantName(index), "'\(variant.name)' is used by another variant of \(name)")
      }
      guard variant.weight > 0 else { throw fail(.variantWeight(index), "must be greater than 0") }
      guard variant.weight <= Self.largestTotalWeight - totalWeight else {
        throw fail(
          .variantWeight(index),
          "brings the total weight above 2^62 (\(Self.largestTotalWeight)): use smaller weights in the same proportions")
      }
      totalWeight += variant.weight
      for key in keys where variant.assignments[key] == nil {
        throw fail(.variantAssignments(index), "variant \(variant.name) must supply a value for key '\(key)'")
      }
      for key in variant.assignments.keys.sorted() where !seenKeys.contains(key) {
        throw fail(.variantAssignments(index), "'\(key)' is not a key of \(name): add it to keys or remove it")
      }
    }
    let baseline = baseline ?? variants[0].name
    guard seenVariants.contains(baseline) else {
      throw fail(.baseline, "'\(baseline)' must be the name of one of the variants")
    }
    self.name = name
    self.keys = keys
    self.variants = variants
    self.baseline = baseline
    self.activeTokenRange = activeTokenRange
  }

  /// The largest sum of weights: the running sums `WeightedSelection` keeps in
  /// 64 bits never overflow.
  public static let largestTotalWeight = 1 << 62

  /// The position of the variant called `name`, if the experiment has one.
  public func variantIndex(named name: String) -> Int? {
    variants.firstIndex { $0.name == name }
  }

  /// The variant the app behaves like when the experiment is not active.
  public var baselineVariant: Variant {
    variants[variantIndex(named: baseline)!]
  }

  /// The chance that a device on which the experiment is active selects each
  /// variant, in the order of `variants`.
  public var selectionProbabilities: [Double] {
    let total = Double(variants.reduce(0) { $0 + $1.weight })
    return variants.map { Double($0.weight) / total }
  }
}

/// A rule of experiment definitions that a definition breaks.
public struct ExperimentError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The part of the definition that is wrong, so that a file format can point
  /// at the exact place.
  public enum Field: Hashable, Sendable {
    case name
    case keys
    case key(Int)
    case variants
    case variantName(Int)
    case variantWeight(Int)
    case variantAssignments(Int)
    case baseline
  }

  public let experiment: String
  public let field: Field
  /// What is wrong and what would fix it, as a sentence fragment.
  public let problem: String

  public init(experiment: String, field: Field, problem: String) {
    self.experiment = experiment
    self.field = field
    self.problem = problem
  }

  public var description: String {
    "experiment \(experiment.isEmpty ? "(unnamed)" : experiment): \(field): \(problem)"
  }
}

extension ExperimentError.Field: CustomStringConvertible {
  public var description: String {
    switch self {
    case .name: return "name"
    case .keys: return "keys"
    case .key(let index): return "keys[\(index)]"
    case .variants: return "variants"
    case .variantName(let index): return "variants[\(index)].name"
    case .variantWeight(let index): return "variants[\(index)].weight"
    case .variantAssignments(let index): return "variants[\(index)].assignments"
    case .baseline: return "baseline"
    }
  }
}
