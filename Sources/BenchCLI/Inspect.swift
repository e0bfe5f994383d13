import ArgumentParser
import Lab
import Report
import ScenarioFormat
import Simulation

extension Bench {
  /// Replays one device alone and prints its life: the bench's debug screen.
  public struct Inspect: ParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Print one device's life: token, versions, launches, variants, events.",
      discussion: """
        The device is replayed alone from its own random streams, exactly as the full run \
        simulates it, so what it prints agrees with the run's results and events. Name it with \
        --device, or let --find pick the first devices of a kind, in device order: \
        \(DeviceKind.list).
        """
    )

    @OptionGroup var options: ScenarioOptions

    @Option(help: "The device to replay, from 0.")
    var device: Int?

    @Option(help: ArgumentHelp("The kind of device to find instead: \(DeviceKind.list).", valueName: "kind"))
    var find: DeviceKind?

    @Option(help: "How many devices --find prints.")
    var count: Int = 1

    @Option(help: "The replication the device belongs to.")
    var replication: Int = 0

    @OptionGroup var largeRun: LargeRunFlag

    public init() {}

    public func validate() throws {
      guard replication >= 0 else { throw ValidationError("--replication must be 0 or greater.") }
      guard count >= 1 else { throw ValidationError("--count must be 1 or greater.") }
      switch (device, find) {
      case (nil, nil): throw ValidationError("Name a device with --device N, or a kind with --find (\(DeviceKind.list)).")
      case (.some, .some): throw ValidationError("--device and --find are alternatives: give one.")
      default: break
      }
    }

    public func run() throws {
      let (scenario, _) = try options.load()
      let simulator = Simulator(plan: SimulationPlan(scenario))
      guard let kind = find else {
        let device = device ?? 0
        // Only the scenario says how many devices there are: a one-line error, not the usage.
        guard (0..<scenario.devices).contains(device) else {
          throw BenchError.outOfRange(
            option: "--device", problem: "must lie between 0 and \(scenario.devices - 1): the scenario has \(scenario.devices) devices.")
        }
        var history = DeviceHistory(plan: simulator.plan)
        _ = simulator.replay(device: device, replication: replication, observer: &history)
        print(DeviceReport(plan: simulator.plan, history: history, replication: replication).text, terminator: "")
        return
      }
      try RunLimits.checkReplay(simulator.plan, devices: scenario.devices, allowed: largeRun.allowLargeRun)
      var found = 0
      simulator.replay(
        devices: 0..<scenario.devices, replication: replication, makeObserver: { DeviceHistory(plan: simulator.plan) }
      ) { history in
        guard let evidence = kind.evidence(in: history, plan: simulator.plan) else { return true }
        if found > 0 { print() }
        print("Device \(history.device) is \(kind.rawValue): \(evidence).")
        print(DeviceReport(plan: simulator.plan, history: history, replication: replication).text, terminator: "")
        found += 1
        return found < count
      }
      guard found > 0 else {
        throw BenchError.outOfRange(
          option: "--find",
          problem: "\(kind.rawValue): no device of the \(NumberFormat.count(scenario.devices)) in replication \(replication) is of that "
            + "kind; try more --devices, another replication or another kind (\(DeviceKind.list)).")
      }
    }
  }
}

/// A device's history as plain text.
struct DeviceReport {
  let plan: SimulationPlan
  let history: DeviceHistory
  let replication: Int

  var text: String {
    let scenario = plan.scenario
    var lines = [
      "Device \(history.device) of \(scenario.name) (seed \(scenario.seed), replication \(replication))",
      "Token \(history.token.value), segment \(scenario.population.segments[history.segment].name)",
    ]
    if scenario.population.installs != nil {
      let installed = history.upgradeDays.firstIndex { $0 != nil }.map { scenario.versions[$0].version } ?? "?"
      lines.append(history.installDay.map { "Installed \(installed) on day \($0)" } ?? "Installed before day 0")
    }
    let firstVersion = history.upgradeDays.firstIndex { $0 != nil } ?? 0
    let upgrades = zip(scenario.versions, history.upgradeDays).dropFirst(firstVersion + 1).map { version, day in
      "\(version.version) " + (day.map { "on day \(Format.number(($0 * 10).rounded() / 10))" } ?? "never")
    }
    if !upgrades.isEmpty { lines.append("Upgrades: " + upgrades.joined(separator: ", ")) }
    for launch in history.launches {
      lines.append(describe(launch))
    }
    if history.launches.isEmpty { lines.append("No launches.") }
    lines.append("Events:")
    for row in history.events.rows {
      let assignment = row.event.assignment
      lines.append(
        "  day \(row.day) \(row.event.reason.rawValue) \(assignment.experiment)/\(assignment.variant) "
          + "\(assignment.key)=\(assignment.value)")
    }
    if history.events.rows.isEmpty { lines.append("  none") }
    if !scenario.metrics.isEmpty {
      lines.append("Outcomes: " + zip(scenario.metrics, history.outcomes).map { metric, outcome in
        "\(metric.name) \(metric.kind == .conversion ? Format.number(outcome) : AmountPrecision.text(outcome, scale: metric.baseline))"
      }.joined(separator: ", "))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func describe(_ launch: LaunchRecord) -> String {
    let version = plan.versions[launch.version]
    var parts: [String] = []
    for (index, slot) in version.slots.enumerated() {
      let experiment = slot.definition
      guard let variant = launch.decisions[index].variant else {
        parts.append("\(experiment.name) inactive")
        continue
      }
      let state = launch.displayed[index] ? " (displayed)" : launch.served[index] ? "" : " (discarded)"
      parts.append("\(experiment.name) \(experiment.variants[variant].name)" + state)
    }
    for holding in launch.remote {
      // The values the device holds after the launch's fetch: a stabilized device keeps old ones, an override punches through.
      let values = holding.values.keys.sorted().map { "\($0)=\(holding.values[$0]!)" }.joined(separator: " ")
      parts.append(
        "\(plan.experimentNames[holding.experiment]) \(plan.variantNames[holding.experiment][holding.variant]) (remote"
          + (values.isEmpty ? "" : " \(values)") + (holding.displayed ? ", displayed)" : holding.served ? ")" : ", discarded)"))
    }
    for holding in launch.services {
      parts.append(
        "\(name(holding.experiment, holding.variant)) (\(plan.source(of: holding.experiment))"
          + (holding.displayed ? ", displayed)" : ")"))
    }
    var line = "Day \(launch.day): launch \(launch.launchOfVersion) of \(version.version.version): "
      + (parts.isEmpty ? "no experiments" : parts.joined(separator: ", "))
    for clash in launch.clashes {
      line += "; served \(name(clash.servedExperiment, clash.servedVariant)) and discarded "
        + "\(name(clash.discardedExperiment, clash.discardedVariant)), which share \(clash.keys.joined(separator: ", "))"
    }
    if launch.stabilized { line += "; calls stabilize" }
    return line
  }

  /// "Experiment/Variant" for the plan's numbers.
  private func name(_ experiment: Int, _ variant: Int) -> String {
    "\(plan.experimentNames[experiment])/\(plan.variantNames[experiment][variant])"
  }
}
