import ArgumentParser
import Simulation

/// A kind of device `bench inspect --find` looks for, read from the device's
/// launches as the full run counts them: what a team asks of its plan ("show
/// me a device that was reshuffled") before reading one device's life.
enum DeviceKind: String, CaseIterable, ExpressibleByArgument {
  /// Held one variant of an experiment at a launch and another at a later one.
  case reassigned
  /// Was shown two variants of the same experiment: its outcome counts for both.
  case contaminated
  /// Ran a version that called stabilize.
  case stabilized
  /// Had a variant discarded because another experiment's variant took its key.
  case clashed
  /// Active in an experiment with an enrollment rule that never enrolled it:
  /// the devices results.json counts as never enrolled, per experiment.
  case neverEnrolled = "never-enrolled"

  static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }

  /// Why the device is of this kind (the first time it became so), nil when it is not.
  func evidence(in history: DeviceHistory, plan: SimulationPlan) -> String? {
    switch self {
    case .reassigned:
      // By experiment: the variant last held, and the launch that held it.
      var held: [Int: (variant: Int, launch: Int)] = [:]
      for (index, launch) in history.launches.enumerated() {
        for (experiment, variant) in Self.holdings(launch, plan: plan) {
          if let before = held[experiment], before.variant != variant {
            let launches = history.launches[before.launch...index]
            let why = Self.localRulePage(experiment, variant: before.variant, launches: launches, plan: plan).map { " (\($0))" }
              ?? Self.dashboardChanges(of: experiment, after: launches.first!.day, through: launch.day, plan: plan)
            return "\(plan.experimentNames[experiment]) went from \(plan.variantNames[experiment][before.variant]) to "
              + "\(plan.variantNames[experiment][variant]) on day \(launch.day), at \(Self.launchName(launch, plan: plan))" + why
          }
          held[experiment] = (variant, index)
        }
      }
      return nil
    case .contaminated:
      var shown: [Int: Int] = [:]
      for launch in history.launches {
        for (experiment, variant) in Self.displays(launch, plan: plan) {
          if let first = shown[experiment], first != variant {
            return "\(plan.experimentNames[experiment]) showed \(plan.variantNames[experiment][first]) and then "
              + "\(plan.variantNames[experiment][variant]) on day \(launch.day)"
          }
          shown[experiment] = shown[experiment] ?? variant
        }
      }
      return nil
    case .stabilized:
      return history.launches.first(where: \.stabilized).map { "stabilize was called on day \($0.day), at \(Self.launchName($0, plan: plan))" }
    case .clashed:
      guard let launch = history.launches.first(where: { !$0.clashes.isEmpty }), let clash = launch.clashes.first else { return nil }
      return "\(plan.experimentNames[clash.discardedExperiment])/\(plan.variantNames[clash.discardedExperiment][clash.discardedVariant]) "
        + "was discarded on day \(launch.day) for \(clash.keys.joined(separator: ", ")), which "
        + "\(plan.experimentNames[clash.servedExperiment])/\(plan.variantNames[clash.servedExperiment][clash.servedVariant]) holds"
    case .neverEnrolled:
      guard let experiment = history.neverEnrolled.first, let last = history.launches.last else { return nil }
      let held = history.launches.firstIndex { launch in Self.holdings(launch, plan: plan).contains { $0.0 == experiment } }
      let since = held.map { index in
        let launch = history.launches[index]
        return " (held from day \(launch.day), at \(Self.launchName(launch, plan: plan)))"
      } ?? ""
      return "\(plan.experimentNames[experiment]) was active\(since) and its enrollment rule never enrolled the device "
        + "over its \(history.launches.count) launch\(history.launches.count == 1 ? "" : "es") up to day \(last.day)"
    }
  }

  /// The local source's rule that moved a device off `variant` between the
  /// first and last of `launches`: the variant deleted from the version that
  /// decided again (rule 3), or the experiment missing from a version between
  /// (rule 2, its record deleted); nil for a remote or service experiment.
  private static func localRulePage(_ experiment: Int, variant: Int, launches: ArraySlice<LaunchRecord>, plan: SimulationPlan)
    -> String?
  {
    guard let last = launches.last, let slot = plan.versions[last.version].slots.first(where: { $0.experimentID == experiment })
    else { return nil }
    if !slot.definition.variants.contains(where: { $0.name == plan.variantNames[experiment][variant] }) {
      return "docs/rules/DeletedVariant.md"
    }
    if launches.contains(where: { launch in !plan.versions[launch.version].slots.contains { $0.experimentID == experiment } }) {
      return "docs/rules/ExperimentReAdded.md"
    }
    return nil
  }

  /// The changes on the remote service's or the hash-bucketed service's
  /// dashboard that concern `experiment` between two launches (after `start`,
  /// through `end`), which moved the device there: ", after the day-40 change (…)".
  /// The rule page is the platform's for a service experiment, and the
  /// remote source's conclusion rule where a conclusion moved the device.
  private static func dashboardChanges(of experiment: Int, after start: Int, through end: Int, plan: SimulationPlan) -> String {
    let name = plan.experimentNames[experiment]
    let between = { (day: Int) in day > start && day <= end }
    let remote = (plan.scenario.remote?.changes ?? []).filter { $0.experiment == name && between($0.day) }
    let service = (plan.scenario.service?.changes ?? []).filter { $0.experiment == name && between($0.day) }
    let changes = remote.map { ($0.day, $0.description) } + service.map { ($0.day, $0.description) }
    guard !changes.isEmpty else { return "" }
    let concluded = remote.contains { if case .conclude = $0.action { true } else { false } }
    let page = service.isEmpty ? (concluded ? "RemoteConclusion" : nil) : plan.scenario.service?.framework.changeRulePage
    return ", after " + changes.map { "the day-\($0.0) change (\($0.1))" }.joined(separator: " and ")
      + (page.map { " (docs/rules/\($0).md)" } ?? "")
  }

  /// The plan's experiment and variant of everything the device holds at a launch.
  private static func holdings(_ launch: LaunchRecord, plan: SimulationPlan) -> [(Int, Int)] {
    let slots = plan.versions[launch.version].slots
    let local = slots.indices.compactMap { index in
      launch.decisions[index].variant.map { (slots[index].experimentID, slots[index].globalOfLocal[$0]) }
    }
    return local + launch.remote.map { ($0.experiment, $0.variant) } + launch.services.map { ($0.experiment, $0.variant) }
  }

  /// The plan's experiment and variant of everything the device is shown at a launch.
  private static func displays(_ launch: LaunchRecord, plan: SimulationPlan) -> [(Int, Int)] {
    let slots = plan.versions[launch.version].slots
    let local = slots.indices.compactMap { index -> (Int, Int)? in
      guard launch.displayed[index], let variant = launch.decisions[index].variant else { return nil }
      return (slots[index].experimentID, slots[index].globalOfLocal[variant])
    }
    return local + launch.remote.filter(\.displayed).map { ($0.experiment, $0.variant) }
      + launch.services.filter(\.displayed).map { ($0.experiment, $0.variant) }
  }

  private static func launchName(_ launch: LaunchRecord, plan: SimulationPlan) -> String {
    "launch \(launch.launchOfVersion) of \(plan.versions[launch.version].version.version)"
  }
}
