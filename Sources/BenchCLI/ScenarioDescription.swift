import Lab
import ScenarioFormat

/// A plain-text account of a scenario's plan: each version, its experiments,
/// the key conflicts the manager would meet, and what each change does to devices.
struct ScenarioDescription {
  let scenario: Scenario
  let warnings: [ScenarioError]

  var text: String {
    var lines: [String] = []
    lines.append("Scenario \(scenario.name)" + (scenario.description.isEmpty ? "" : ": \(scenario.description)"))
    lines.append(
      "Seed \(scenario.seed), \(scenario.devices) devices, \(scenario.days) days, naming \(scenario.naming.rawValue).")
    for warning in warnings {
      lines.append("warning: \(warning)")
    }
    if let installs = scenario.population.installs {
      let shares = installs.shares(days: scenario.days)
      lines.append(
        "Installs: \(Format.percent(shares.existing)) of the devices before day 0, the rest over the run "
          + "(\(Format.number(installs.daily)) a day in the schedule's units"
          + installs.campaigns.map { ", \(Format.number($0.daily)) more a day on days \($0.day) to \($0.day + $0.days - 1)" }
          .joined() + "); a new device installs the newest version its store serves it that day.")
    }
    for (experiment, moment) in scenario.displayMoments.sorted(by: { $0.key < $1.key }) where moment != .everyLaunch {
      lines.append("\(experiment) is displayed only at " + (moment == .firstLaunch
        ? "a device's first launch after it installs the app." : "a device's first launch of each version."))
    }
    for (index, version) in scenario.versions.enumerated() {
      lines.append("")
      lines.append(header(of: version, isFirst: index == 0))
      for experiment in version.experiments {
        lines.append(contentsOf: describe(experiment))
      }
      if version.experiments.isEmpty {
        lines.append("  no local experiments")
      }
      for conflict in KeyConflict.find(in: version.experiments) {
        let order = conflict.experiments.sorted { first, second in
          version.experiments.firstIndex { $0.name == first }! < version.experiments.firstIndex { $0.name == second }!
        }
        lines.append(
          "  key conflict: \(conflict); on those devices the manager serves \(order[0]), first in the version's order, "
            + "and discards \(order[1])")
      }
      lines.append(contentsOf: carriedClashes(at: index))
      if index > 0 {
        lines.append(contentsOf: changes(upTo: index))
      }
    }
    if let remote = scenario.remote {
      lines.append("")
      lines.append("Remote service: fetches fail \(Format.percent(remote.fetch.failureRate)) of the time, time-out \(Format.number(remote.fetch.timeoutSeconds)) s")
      for change in remote.changes {
        lines.append("  day \(change.day): \(change)")
      }
      for (name, local) in [("custom", remote.customValues), ("debug", remote.debugValues)] {
        guard let local else { continue }
        lines.append(
          "  \(Format.percent(local.share)) of devices use \(name) values for "
            + local.values.keys.sorted().joined(separator: ", ") + " instead of the fetched ones")
      }
    }
    if let service = scenario.service {
      lines.append("")
      lines.append(
        "Service: \(service.framework.name)" + (service.sticky ? ", decisions stored on the device" : ", nothing stored")
          + (service.stickyChoice == nil ? " (its mobile SDKs' default)" : "")
          + (service.reinstallShare > 0 ? ", \(Format.percent(service.reinstallShare)) of devices reinstall once" : "")
          + (service.accessBeforeDownload > 0
            ? ", \(Format.percent(service.accessBeforeDownload)) of launches activate before the datafile arrives" : ""))
      for change in service.changes {
        lines.append("  day \(change.day): \(change.experiment) \(change)")
      }
      for flag in service.flags {
        lines.append(
          "  flag \(flag.name): " + flag.rollout.map { "day \($0.day) \(Format.percent($0.share))" }.joined(separator: ", "))
      }
    }
    for name in scenario.enrollment.keys.sorted() {
      let rule = scenario.enrollment[name]!
      var parts = ["enrolls at \(rule.policy.rawValue)"]
      switch rule.precondition {
      case .events(let count, let perLaunch)?: parts.append("after \(count) events (\(Format.number(perLaunch)) a launch on average)")
      case .launchChance(let chance)?: parts.append("once a \(Format.percent(chance)) chance per launch comes true")
      case nil: break
      }
      if rule.lapseChance > 0 {
        parts.append("which stops holding for good with a \(Format.percent(rule.lapseChance)) chance at each later launch")
      }
      if let handshake = rule.handshake {
        var answers = ["\(Format.percent(handshake.backgroundChance)) of launches go to the background"]
        if handshake.emptyConfigurationChance > 0 {
          answers.append("\(Format.percent(handshake.emptyConfigurationChance)) get an empty configuration")
        }
        if handshake.refusalChance > 0 { answers.append("the server refuses \(Format.percent(handshake.refusalChance))") }
        if handshake.userChangeChance > 0 {
          answers.append("\(Format.percent(handshake.userChangeChance)) switch users while the offer is awaited")
        }
        if let shared = handshake.sharedDevices {
          answers.append(
            "\(Format.percent(shared.share)) of devices have two users, who switch at \(Format.percent(shared.switchChance)) of launches")
        }
        if !handshake.waitsSetBeforeInitialization {
          answers.append("the waits are set after initialization, so the SDK keeps its defaults")
        }
        parts.append("through devtodev's handshake (" + answers.joined(separator: "; ") + ")")
      }
      lines.append("Enrollment: \(name) " + parts.joined(separator: ", "))
    }
    lines.append(contentsOf: metricLines)
    for rule in scenario.churn {
      let condition = rule.whileValues.keys.sorted().map { "\($0)=\(rule.whileValues[$0]!)" }.joined(separator: " ")
      lines.append(
        "Churn: \(rule.experiment)/\(rule.variant)" + (condition.isEmpty ? "" : " while \(condition)")
          + " loses \(Format.percent(rule.dailyProbability)) of its devices a day")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The metrics with their roles, baselines and true lifts, then the
  /// analysis settings the decision uses.
  private var metricLines: [String] {
    guard !scenario.metrics.isEmpty else { return [] }
    let analysis = scenario.analysis
    let success = analysis.successMetrics(among: scenario.metrics.map(\.name))
    var lines = ["", "Metrics:"]
    for metric in scenario.metrics {
      let role = analysis.guardrails[metric.name].map { "guardrail, margin \(Format.percent($0))" }
        ?? (success.contains(metric.name) ? "success metric" : "measured only")
      let baseline = metric.kind == .conversion ? "baseline rate \(Format.percent(metric.baseline))" : "baseline mean \(Format.number(metric.baseline))"
      lines.append("  \(metric.name) (\(metric.kind == .conversion ? "conversion" : "continuous")), \(role), \(baseline)")
      for experiment in metric.lifts.keys.sorted() {
        let lifts = metric.lifts[experiment]!
        lines.append(
          "    true lifts in \(experiment): "
            + lifts.keys.sorted().map { "\($0) \(Format.signedPercent(lifts[$0]!))" }.joined(separator: ", "))
      }
    }
    lines.append(
      "Analysis: alpha \(Format.number(analysis.alpha)), power \(Format.number(analysis.power)), planned lift "
        + "\(Format.percent(analysis.minimumDetectableEffect)), \(analysis.correction.rawValue) correction per metric, "
        + "\(analysis.attribution.rawValue) attribution, deterioration alpha \(Format.number(analysis.deteriorationAlpha))"
        + (analysis.dailyLooks ? ", daily looks" : "") + ".")
    lines.append(
      "Decision: a variant ships when one of " + (success.isEmpty ? "no success metrics" : success.joined(separator: ", "))
        + " improves significantly, every guardrail is shown safe and nothing gets significantly worse (docs/statistics.md).")
    return lines
  }

  private func header(of version: AppVersion, isFirst: Bool) -> String {
    var parts = ["Version \(version.version), released on day \(version.releaseDay)"]
    if isFirst {
      parts.append(scenario.population.installs == nil ? "installed by every device" : "installed by the devices of day 0")
    } else if let curve = version.adoption.curve, let last = curve.last {
      parts.append(
        "adopted by a curve: " + curve.map { "\(Format.percent($0.share)) by day \(Format.number($0.day))" }
          .joined(separator: ", ") + "; \(Format.percent(1 - last.share)) never")
    } else {
      parts.append("mean upgrade delay \(Format.number(version.adoption.meanDelayDays)) days")
      parts.append("\(Format.percent(version.adoption.neverUpgradeShare)) never upgrade")
      if version.adoption.automaticShare > 0 {
        parts.append("\(Format.percent(version.adoption.automaticShare)) of the rest update automatically")
      }
    }
    if let phased = version.rollout?.appStorePhasedRelease {
      let paused = phased.pauses.reduce(0) { $0 + $1.days }
      parts.append("App Store phased release" + (paused > 0 ? " paused \(paused) days" : ""))
    }
    if let stages = version.rollout?.googlePlayStages, !stages.isEmpty {
      parts.append("Google Play stages " + stages.map { "day \($0.day) " + ($0.isHalt ? "halt" : Format.percent($0.share)) }
        .joined(separator: ", "))
    }
    if let required = version.requiredFromDay {
      parts.append("required from day \(required)")
    }
    if let launch = version.stabilizeOnLaunch {
      parts.append("calls stabilize on launch \(launch)")
    }
    return parts.joined(separator: ", ")
  }

  private func describe(_ experiment: Experiment) -> [String] {
    var lines = [
      "  \(experiment.name): keys \(experiment.keys.joined(separator: ", ")); active for tokens in "
        + "\(experiment.activeTokenRange); baseline \(experiment.baseline)"
    ]
    for (variant, probability) in zip(experiment.variants, experiment.selectionProbabilities) {
      let values = experiment.keys.map { "\($0)=\(variant.assignments[$0]!)" }.joined(separator: " ")
      lines.append("    \(variant.name): weight \(variant.weight) (\(Format.percent(probability))) \(values)")
    }
    return lines
  }

  private func changes(upTo index: Int) -> [String] {
    let previous = scenario.versions[index - 1], current = scenario.versions[index]
    let earlier = scenario.versions[..<(index - 1)]
    var names: [String] = []
    for experiment in previous.experiments + current.experiments where !names.contains(experiment.name) {
      names.append(experiment.name)
    }
    var lines: [String] = []
    for name in names {
      let old = previous.experiments.first { $0.name == name }
      for change in ExperimentChange.between(old, current.experiments.first { $0.name == name }) {
        var line = "  change from \(previous.version): \(name) \(change)"
        if change == .added, earlier.contains(where: { $0.experiments.contains { $0.name == name } }) {
          line += "; it is back after \(previous.version) removed it, so devices that ran \(previous.version) "
            + "start afresh while devices that skipped it keep their variant"
        }
        if case .tokenRangeChanged(let from, let to) = change, to.lower < from.lower || to.upper > from.upper {
          line += "; the wider range reaches only fresh installs and devices that decide afresh (after a removal "
            + "or a deleted variant): devices that recorded \(name) inactive stay inactive"
        }
        lines.append(line)
      }
    }
    return lines
  }
}

extension ScenarioDescription {
  /// Shared keys that clash although the version's ranges are disjoint: a
  /// device keeps its recorded status when a range moves (TokenRangeChange),
  /// so devices an earlier version made active in an experiment stay active
  /// outside its new range, where another experiment that shares a key may
  /// be active too.
  func carriedClashes(at index: Int) -> [String] {
    let version = scenario.versions[index]
    return KeySharing(version.experiments).pairs.flatMap { pair -> [String] in
      let first = version.experiments[pair.first], second = version.experiments[pair.second]
      // Where the current ranges overlap, KeyConflict has said so already.
      guard !first.activeTokenRange.overlaps(second.activeTokenRange) else { return [] }
      return [(first, second), (second, first)].compactMap { carrier, other -> String? in
        for earlier in scenario.versions[..<index].reversed() {
          guard let old = earlier.experiments.first(where: { $0.name == carrier.name }),
            let tokens = old.activeTokenRange.intersection(other.activeTokenRange)
          else { continue }
          return "  key clash carried over: \(carrier.name) was active for tokens in \(old.activeTokenRange) in "
            + "\(earlier.version) and its devices keep that status, so for tokens in \(tokens), where \(other.name) "
            + "is active now, both claim \(pair.keys.map { "'\($0)'" }.joined(separator: ", ")); on those devices the "
            + "manager serves \(first.name), first in the version's order, and discards \(second.name)"
        }
        return nil
      }
    }
  }
}

/// Number formats shared by the command's output.
enum Format {
  /// A share as a percentage with one decimal, e.g. `40.0%`.
  static func percent(_ share: Double) -> String {
    let tenths = (share * 1000).rounded()
    return "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10)%"
  }

  /// A lift as a signed percentage with one decimal, e.g. `+8.0%`, `−5.0%`.
  static func signedPercent(_ share: Double) -> String {
    (share < 0 ? "−" : "+") + percent(abs(share))
  }

  /// A number without a trailing `.0` when it is whole.
  static func number(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
  }
}
