/// The model behind Lab's debug screen: a source that wraps the app's sources,
/// lists every experiment and variant they have, and lets a developer force a
/// variant per experiment without building the app once per variant.
///
/// A forced variant is active whatever the token says, which can activate
/// experiments that would never be active together: keep it to debug builds.
public struct DebugSource: StabilizingSource {
  /// The name forced variants carry, so that analytics can tell them apart.
  public let name: String
  public private(set) var sources: [any AssignmentsSource]
  /// The forced variant's name, by experiment name.
  public private(set) var forcedVariants: [String: String] = [:]

  public init(sources: [any AssignmentsSource], name: String = "Debug") {
    self.sources = sources
    self.name = name
  }

  /// One section of the debug screen: a source and the experiments it has.
  public struct Section: Hashable, Sendable {
    public let source: String
    public let experiments: [Experiment]
  }

  /// Every experiment of every wrapped source, under the source's name.
  public var sections: [Section] {
    sources.map { Section(source: $0.name, experiments: $0.experiments) }
  }

  public var experiments: [Experiment] {
    sources.flatMap(\.experiments)
  }

  /// The wrapped sources' active variants, with each forced experiment's
  /// variant replaced, or added when the experiment was not active.
  public var activeVariants: [ActiveVariant] {
    var active = sources.flatMap(\.activeVariants).filter { forcedVariants[$0.experiment] == nil }
    for experiment in experiments {
      guard let forced = forcedVariants[experiment.name],
        let index = experiment.variantIndex(named: forced)
      else { continue }
      active.append(ActiveVariant(experiment: experiment.name, variant: experiment.variants[index], source: name))
    }
    return active
  }

  /// Makes `variant` the active variant of `experiment` until it is cleared.
  ///
  /// - Throws: `DebugSourceError` when no wrapped source has that experiment or
  ///   the experiment has no such variant.
  public mutating func force(variant: String, of experiment: String) throws(DebugSourceError) {
    guard let definition = experiments.first(where: { $0.name == experiment }) else {
      throw .unknownExperiment(experiment)
    }
    guard definition.variantIndex(named: variant) != nil else {
      throw .unknownVariant(variant, experiment: experiment, known: definition.variants.map(\.name))
    }
    forcedVariants[experiment] = variant
  }

  /// Lets the wrapped sources decide `experiment` again.
  public mutating func clearForcedVariant(of experiment: String) {
    forcedVariants[experiment] = nil
  }

  /// Lets the wrapped sources decide every experiment again: the screen's reset.
  public mutating func reset() {
    forcedVariants = [:]
  }

  /// Forwards the hint to every wrapped source that supports it.
  public mutating func stabilizeUserExperience() throws {
    try sources.stabilizeUserExperience()
  }
}

/// Why a variant cannot be forced.
public enum DebugSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  case unknownExperiment(String)
  case unknownVariant(String, experiment: String, known: [String])

  public var description: String {
    switch self {
    case .unknownExperiment(let name):
      return "no source has an experiment named \(name)"
    case .unknownVariant(let variant, let experiment, let known):
      return "experiment \(experiment) has no variant \(variant); it has \(known.joined(separator: ", "))"
    }
  }
}
