import ScenarioFormat

/// Which variant of an experiment in an events table the others are compared
/// with, and why (docs/analyze.md, "Baselines"). The order in which a file
/// could be read would make any variant the first one (a warehouse query
/// sorted by time puts a treatment first), so a baseline comes from, in
/// order, `--baseline`, the scenario (an experiment's own baseline, or a
/// service's or a remote source's first variation, as the simulation takes
/// it), the tool's own marker where its export has one (Firebase's variant
/// 0), a variant named as controls are named, or the only variant; where none
/// settles it, the first variant in the file, which the report and a warning
/// say, asking for `--baseline`.
public struct BaselineChoice: Hashable, Sendable {
  public enum Reason: Hashable, Sendable {
    /// `--baseline EXPERIMENT=VARIANT`.
    case option
    /// The scenario's experiment, service or remote source.
    case scenario
    /// The export's own baseline (`ExportMapping.baseline`).
    case export
    /// The one variant named as a control is (`controlNames`).
    case controlName
    /// The experiment's only variant in the table: nothing to compare it with.
    case onlyVariant
    /// Nothing above: the first variant the file holds, a guess the
    /// analysis says it made.
    case firstInFile
  }

  public let variant: String
  public let reason: Reason

  public init(variant: String, reason: Reason) {
    self.variant = variant
    self.reason = reason
  }

  /// Names a team gives a control, compared without case, spaces, dashes
  /// or underscores: "Control", "control_group", "Baseline", "off", "default", "original".
  public static let controlNames: Set<String> = ["control", "controlgroup", "baseline", "off", "default", "original"]

  /// Why, as the report says it after the variant's name.
  public var why: String {
    switch reason {
    case .option: "given with --baseline"
    case .scenario: "the scenario's"
    case .export: "the export's own baseline"
    case .controlName: "named as a control is"
    case .onlyVariant: "the only variant in the file"
    case .firstInFile: "the first variant in the file, as nothing settles it: give --baseline"
    }
  }

  /// The baseline of `experiment`, whose variants in the table are `variants`.
  public static func choose(
    experiment: String, variants: [String], option: String?, scenario: Scenario?, mapping: ExportMapping?
  ) -> BaselineChoice {
    if let option { return BaselineChoice(variant: option, reason: .option) }
    if let planned = scenario.flatMap({ Self.planned(experiment, in: $0) }), variants.contains(planned) {
      return BaselineChoice(variant: planned, reason: .scenario)
    }
    if let marker = mapping?.baseline, variants.contains(marker) {
      return BaselineChoice(variant: marker, reason: .export)
    }
    if variants.count == 1 { return BaselineChoice(variant: variants[0], reason: .onlyVariant) }
    let named = variants.filter { controlNames.contains(NameFolding.folded($0)) }
    if named.count == 1 { return BaselineChoice(variant: named[0], reason: .controlName) }
    return BaselineChoice(variant: variants[0], reason: .firstInFile)
  }

  /// The baseline the scenario gives `experiment`: its last definition's in
  /// the versions, else the first variation of the service's or the remote
  /// source's experiment of that name.
  private static func planned(_ experiment: String, in scenario: Scenario) -> String? {
    let local = scenario.versions.compactMap { version in version.experiments.first { $0.name == experiment } }
    if let definition = local.last(where: { $0.variants.count > 1 }) ?? local.last { return definition.baseline }
    if let service = scenario.service?.experimentVariations.first(where: { $0.name == experiment }) {
      return service.variations.first
    }
    for change in scenario.remote?.changes ?? [] {
      if case .add(let remote, _) = change.action, remote.name == experiment { return remote.variants.first?.name }
    }
    return nil
  }
}
