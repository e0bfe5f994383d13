// SPDX-License-Identifier: Apache-2.0

/// The model behind Lab's debug screen: a source that wraps the app's sources,
/// lists every experiment and variant they know, section by source, and lets a
/// developer force a variant per experiment without building the app once per
/// variant.
///
/// The doc warns that the screen "may cause abnormal activation of
/// experiments, mainly, intersecting experiments that would otherwise never be
/// active together". Such an activation is served: forced variants come first
/// in `activeVariants`, so the manager's merge gives them their keys and
/// discards the wrapped variant that shares one (`KeySharing.serve`). Keep the
/// source to debug builds.
public struct DebugSource: StabilizingSource {
  /// The name forced variants carry, so that analytics can tell them apart.
  public let name: String
  public private(set) var sources: [any AssignmentsSource]
  /// The forced variant's name, by experiment name.
  public private(set) var forcedVariants: [String: String] = [:]
  /// The outcome of the last update the Settings screen asked of each source,
  /// by source name; a source never updated has none.
  public private(set) var statuses: [String: UpdateStatus] = [:]

  public init(sources: [any AssignmentsSource], name: String = "Debug") {
    self.sources = sources
    self.name = name
  }

  /// One section of the debug screen: a source and the experiments it knows.
  public struct Section: Hashable, Sendable {
    public let source: String
    public let experiments: [Experiment]
  }

  /// What the Settings screen shows for a source after an update.
  public enum UpdateStatus: Hashable, Sendable {
    case updated
    /// The update threw; the message is what the screen's `Status` shows.
    case failed(String)
  }

  /// Every experiment of every wrapped source, under the source's name, in
  /// the sources' order.
  public var sections: [Section] {
    sources.map { Section(source: $0.name, experiments: $0.experiments) }
  }

  public var experiments: [Experiment] {
    sources.flatMap(\.experiments)
  }

  /// The forced variants first, in the order of `experiments`, then the
  /// wrapped sources' active variants in their order, without the forced
  /// experiments: a forced variant wins every key it shares.
  public var activeVariants: [ActiveVariant] {
    var active: [ActiveVariant] = []
    for experiment in experiments {
      guard let forced = forcedVariants[experiment.name], let index = experiment.variantIndex(named: forced),
        !active.contains(where: { $0.experiment == experiment.name })
      else { continue }
      active.append(ActiveVariant(experiment: experiment.name, variant: experiment.variants[index], source: name))
    }
    return active + sources.flatMap(\.activeVariants).filter { forcedVariants[$0.experiment] == nil }
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

  /// Lets the wrapped sources decide every experiment again: the main screen's reset.
  public mutating func reset() {
    forcedVariants = [:]
  }

  /// The Settings screen's `Reset` for one section: clears the forced
  /// variants of the experiments that source knows.
  ///
  /// - Throws: `DebugSourceError.unknownSource` when no wrapped source has that name.
  public mutating func reset(source: String) throws(DebugSourceError) {
    guard let wrapped = sources.first(where: { $0.name == source }) else { throw .unknownSource(source) }
    for experiment in wrapped.experiments { forcedVariants[experiment.name] = nil }
  }

  /// The Settings screen's `Update` for one section: lets `body` refresh the
  /// source (for a `RemoteSource`, apply a fetch of the service's whole
  /// configuration) and records the outcome for the section's `Status`.
  ///
  /// - Throws: `DebugSourceError` when no wrapped source has that name or it
  ///   is not a `Source`; what `body` throws becomes the status instead.
  public mutating func update<Source: AssignmentsSource>(
    source: String, as type: Source.Type, _ body: (inout Source) throws -> Void
  ) throws(DebugSourceError) {
    guard let index = sources.firstIndex(where: { $0.name == source }) else { throw .unknownSource(source) }
    guard var wrapped = sources[index] as? Source else {
      throw .notOfType(source: source, type: String(describing: type))
    }
    do {
      try body(&wrapped)
      sources[index] = wrapped
      statuses[source] = .updated
    } catch {
      statuses[source] = .failed("\(error)")
    }
  }

  /// Forwards the hint to every wrapped source that supports it.
  public mutating func stabilizeUserExperience() throws {
    try sources.stabilizeUserExperience()
  }
}

/// Why the debug screen cannot do what was asked.
public enum DebugSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  case unknownExperiment(String)
  case unknownVariant(String, experiment: String, known: [String])
  case unknownSource(String)
  case notOfType(source: String, type: String)

  public var description: String {
    switch self {
    case .unknownExperiment(let name):
      return "no source has an experiment named \(name)"
    case .unknownVariant(let variant, let experiment, let known):
      return "experiment \(experiment) has no variant \(variant); it has \(known.joined(separator: ", "))"
    case .unknownSource(let name):
      return "the debug source wraps no source named \(name)"
    case .notOfType(let source, let type):
      return "source \(source) is not a \(type)"
    }
  }
}
