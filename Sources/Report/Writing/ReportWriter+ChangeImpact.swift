import Lab
import Results
import ScenarioFormat

/// What each version and dashboard change did to devices, the enrollment rules and the feature flags.
extension ReportWriter {
  mutating func writeChangeImpact() {
    let transitions = document.experiments.flatMap { experiment in experiment.transitions.map { (experiment, $0) } }
    writeServiceChanges()
    writeFlags()
    guard !transitions.isEmpty || !document.conflicts.isEmpty else { return }
    heading(2, "Change impact")
    paragraph(
      "What each upgrade did to the devices of each experiment, comparing a device's last launch of the old version with its "
        + "first launch of the new one, and the Lab rule that decided it (docs/rules/). Of the devices that made the upgrade, "
        + "each was kept, reassigned, deactivated, activated or stayed inactive; \"returned elsewhere\" counts, of the "
        + "devices that came back to the experiment, those on another variant than their last.")
    for experiment in document.experiments {
      let rows = experiment.transitions.filter { $0.total > 0 }
      guard !rows.isEmpty else { continue }
      paragraph("\(strong: experiment.name)")
      var upgrades = ReportTable(
        columns: [.init("Upgrade")]
          + ["Devices", "Kept", "Reassigned", "Deactivated", "Activated", "Inactive", "Returned elsewhere"]
          .map { .init(ReportText($0), numeric: true) })
      for transition in rows {
        let back = transition.returned > 0
          ? "\(NumberFormat.count(transition.returnedOnAnotherVariant)) of \(NumberFormat.count(transition.returned))" : "–"
        upgrades.append(
          [
            "\(transition.fromVersion) → \(transition.toVersion)", NumberFormat.count(transition.devices),
            NumberFormat.count(transition.kept), NumberFormat.count(transition.reassigned), NumberFormat.count(transition.deactivated),
            NumberFormat.count(transition.activated), NumberFormat.count(transition.devices - transition.total), back,
          ].map { ReportText($0) })
      }
      table(upgrades)
    }
    var sentences: [ReportText] = []
    // One sentence per change of each upgrade between consecutive versions; devices that skipped versions
    // met the same changes at once, by the same rules, so one sentence per experiment names those upgrades.
    for experiment in document.experiments {
      let made = experiment.transitions.filter { $0.total > 0 }
      for transition in made where !ChangeSentences.skipsVersions(transition, versions: input.versions) {
        sentences += ChangeSentences.sentences(for: transition, of: experiment.name, versions: input.versions).map { ReportText($0) }
      }
      let skipping = made.filter { ChangeSentences.skipsVersions($0, versions: input.versions) }
      if !skipping.isEmpty {
        let upgrades = skipping.map { "\($0.fromVersion) → \($0.toVersion) (\(NumberFormat.count($0.devices)))" }
        sentences.append(ReportText(
          "\(experiment.name): devices that skipped versions, \(upgrades.joined(separator: ", ")), met the skipped "
            + "versions' changes at once, by the same rules; the table counts what each did."))
      }
    }
    for experiment in document.experiments where experiment.mixedDevices > 0 {
      let exposed = experiment.variants.map(\.firstExposed).reduce(0, +)
      sentences.append(ReportText(
        "\(experiment.name): \(NumberFormat.count(experiment.mixedDevices)) of its \(NumberFormat.count(exposed)) exposed devices "
          + "(\(NumberFormat.percent(Double(experiment.mixedDevices) / Double(exposed), decimals: 1))) were shown more than one "
          + "variant; each carries a mix of their effects, which pulls the observed lifts away from the true ones."))
    }
    for conflict in document.conflicts {
      let names = conflict.experiments.joined(separator: " and ")
      if conflict.devices > 0, let first = conflict.firstDay, let last = conflict.lastDay {
        let served = conflict.served.map { "\($0.experiment)/\($0.variant) on \(NumberFormat.count($0.devices))" }
          .joined(separator: ", ")
        let days = first == last ? "on day \(first)" : "from day \(first) to day \(last)"
        sentences.append(
          "\(names) share the key \(code: conflict.key): on \(NumberFormat.count(conflict.devices)) devices both were active "
            + "at once (\(days)). The assignments manager served the variant first in its order (\(served) devices) and "
            + "discarded the other's whole variant at those launches, as Lab's manager does (Lab allows shared keys only on "
            + "disjoint token ranges; a range that shrinks leaves its active devices behind).")
      } else {
        sentences.append("\(names) share the key \(code: conflict.key) and were never active together on a device.")
      }
    }
    list(sentences)
  }

  /// Who each enrollment rule enrolled, and the diluted estimate (every
  /// enrolled device) beside the triggered one (devices shown the change).
  mutating func writeEnrollment() {
    let experiments = document.experiments.filter { $0.enrollment != nil }
    guard !experiments.isEmpty else { return }
    heading(2, "Enrollment")
    for experiment in experiments {
      let enrollment = experiment.enrollment!
      let enrolled = enrollment.variants.map(\.exposed).reduce(0, +), shown = enrollment.shown.reduce(0, +)
      let share = enrolled > 0 ? NumberFormat.percent(Double(shown) / Double(enrolled), decimals: 1) : "–"
      paragraph(ReportText(
        "\(experiment.name) enrolls at \(enrollment.policy == "run" ? "run (when shown)" : enrollment.policy): "
          + "\(NumberFormat.count(enrolled)) devices enrolled, \(NumberFormat.count(shown)) of them (\(share)) shown the "
          + "experiment. Enrolled devices never shown it dilute the measured effect; devices never enrolled are left out, "
          + "not counted as the baseline."))
      let mistaken = enrollment.neverEnrolledAsBaselineAnalysis
      var lifts = ReportTable(
        columns: [
          .init("Metric"), .init("Variant"), .init("Triggered: shown devices (CI)", numeric: true),
          .init("Diluted: enrolled devices (CI)", numeric: true),
        ] + (mistaken.isEmpty ? [] : [.init("Never-enrolled counted as baseline, a mistake (CI)", numeric: true)])
          + [.init("True lift when shown", numeric: true)])
      func cell(_ comparison: Comparison?) -> String {
        comparison.map { LiftText.cell($0, alpha: input.settings.alpha) } ?? "–"
      }
      for (index, (triggered, diluted)) in zip(experiment.analysis, enrollment.analysis).enumerated() {
        for (position, (shownComparison, enrolledComparison)) in zip(triggered.comparisons, diluted.comparisons).enumerated() {
          let wrong = index < mistaken.count && position < mistaken[index].comparisons.count
            ? [cell(mistaken[index].comparisons[position])] : (mistaken.isEmpty ? [] : ["–"])
          lifts.append(
            ([triggered.metric, "\(shownComparison.variant) vs \(shownComparison.baseline)", cell(shownComparison), cell(enrolledComparison)]
              + wrong + [NumberFormat.signedPercent(shownComparison.trueLift)]).map { ReportText($0) })
        }
      }
      table(lifts)
      let compared = zip(experiment.analysis, enrollment.analysis).flatMap { $0.comparisons + $1.comparisons }
        + mistaken.flatMap(\.comparisons)
      if compared.contains(where: { LiftText.disagrees($0, alpha: input.settings.alpha) }) {
        paragraph("† The lift's interval and the test's p-value disagree at the margin; the test decides.")
      }
      let active = enrollment.segments.map(\.active).reduce(0, +), enrolledTotal = enrollment.segments.map(\.enrolled).reduce(0, +)
      if enrollment.segments.count > 1, active > 0, enrolledTotal > 0 {
        let mix = enrollment.segments.map { segment in
          "\(segment.name) \(NumberFormat.percent(Double(segment.enrolled) / Double(enrolledTotal), decimals: 1)) of the enrolled "
            + "(\(NumberFormat.percent(Double(segment.active) / Double(active), decimals: 1)) of the devices it was active on)"
        }
        var sentence = "Who enrolled: " + mix.joined(separator: ", ") + "."
        if let metric = enrollment.variants.first?.metrics.first?.name,
          let baseline = enrollment.variants.first(where: { $0.name == experiment.baseline })?.metrics.first?.trueMean,
          let treated = enrollment.variants.first(where: { $0.name != experiment.baseline })?.metrics.first?.trueMean, baseline > 0
        {
          sentence += " Over the enrolled devices the true lift on \(metric) is "
            + "\(NumberFormat.signedPercent(treated / baseline - 1)), which is what the enrolled estimate measures."
        }
        paragraph(ReportText(sentence))
      }
      if let never = enrollment.neverEnrolled {
        paragraph(ReportText(
          "\(NumberFormat.count(never.exposed)) devices had the experiment active but never enrolled; counting them as the "
            + "baseline mixes in devices the precondition or the handshake kept out, which are not like the enrolled ones."))
      }
      if !enrollment.conditionMet.isEmpty {
        paragraph(ReportText(
          "Precondition met by \(NumberFormat.count(enrollment.conditionMet.reduce(0, +))) devices; by day: "
            + enrollment.conditionMet.enumerated().filter { $0.element > 0 }
            .map { "day \($0.offset) \(NumberFormat.count($0.element))" }.joined(separator: ", ") + "."))
      }
      if !enrollment.conditionLapsed.isEmpty {
        let lapsed = enrollment.conditionLapsed.reduce(0, +)
        paragraph(ReportText(
          "Precondition stopped holding for \(NumberFormat.count(lapsed)) devices, on which the app no longer ran the "
            + "experiment from then (they stay in the variant they enrolled in); by day: "
            + enrollment.conditionLapsed.enumerated().filter { $0.element > 0 }
            .map { "day \($0.offset) \(NumberFormat.count($0.element))" }.joined(separator: ", ") + "."))
      }
      if !enrollment.handshakes.isEmpty {
        let active = (0..<document.days).filter { day in enrollment.handshakes.contains { $0.days[day] > 0 } }
        paragraph("devtodev's handshake, launches by outcome and day:")
        var handshakes = ReportTable(
          columns: [.init("Day", numeric: true)] + enrollment.handshakes.map { .init(ReportText($0.outcome), numeric: true) })
        for day in active {
          handshakes.append([ReportText("\(day)")] + enrollment.handshakes.map { ReportText(NumberFormat.count($0.days[day])) })
        }
        table(handshakes)
      }
      if !enrollment.restoredUsers.isEmpty {
        let restored = enrollment.restoredUsers.reduce(0, +), newUsers = enrollment.newUsers.reduce(0, +)
        paragraph(ReportText(
          "On devices two users share, the user changed \(NumberFormat.count(restored + newUsers)) times: "
            + "\(NumberFormat.count(restored)) times to a user who had started the test, who had it back at once, and "
            + "\(NumberFormat.count(newUsers)) times to one who had not, who saw the defaults until their own handshake."))
      }
    }
  }

  /// What each change on a hash-bucketed service's dashboard did to the
  /// devices whose configuration it reached.
  mutating func writeServiceChanges() {
    let changes = document.experiments.flatMap { experiment in experiment.changes.map { (experiment, $0) } }
    guard !changes.isEmpty else { return }
    heading(2, "Changes on the service")
    paragraph(
      "What each change on the dashboard did to the devices that launched before it and again with it, comparing the two "
        + "launches (docs/rules/).")
    var changeTable = ReportTable(
      columns: [.init("Day", numeric: true), .init("Experiment"), .init("Change")]
        + ["Devices reached", "Kept", "Moved", "Left", "Entered"].map { .init(ReportText($0), numeric: true) })
    for (experiment, change) in changes {
      changeTable.append(
        [
          "\(change.day)", "\(experiment.name) (\(experiment.source))", change.change, NumberFormat.count(change.devices),
          NumberFormat.count(change.kept), NumberFormat.count(change.moved), NumberFormat.count(change.left),
          NumberFormat.count(change.entered),
        ].map { ReportText($0) })
    }
    table(changeTable)
    list(changes.filter { $0.1.moved > 0 && $0.1.devices > 0 }.map { experiment, change in
      ReportText(
        "\(experiment.name), day \(change.day) (\(change.change)): \(NumberFormat.count(change.moved)) devices "
          + "(\(NumberFormat.percent(Double(change.moved) / Double(change.devices), decimals: 1)) of those reached) changed "
          + "variation; each carries a mix of both variations' effects.")
    })
    list(changes.compactMap { experiment, change in
      guard let values = change.values, values.took + values.keptOld > 0 else { return nil }
      return ReportText(
        "\(experiment.name), day \(change.day): of the \(NumberFormat.count(change.kept)) devices that kept their variant, "
          + "\(NumberFormat.count(values.took)) took the new values"
          + (values.overridden > 0
            ? ", \(NumberFormat.count(values.overridden)) of them stabilized devices an override reached (docs/rules/RemoteOverride.md)" : "")
          + (values.keptOld > 0
            ? "; \(NumberFormat.count(values.keptOld)) stabilized devices kept the values it replaced "
              + "(docs/rules/RemoteStabilization.md)" : "")
          + ".")
    })
    if let stale = document.delivery?.staleActivations, stale.contains(where: { $0 > 0 }) {
      paragraph(ReportText(
        "\(NumberFormat.count(stale.reduce(0, +))) launches activated their experiments before that launch's datafile "
          + "arrived, and kept the previous datafile's activations for the session; a device meets a change one launch "
          + "later that way (by day: " + stale.enumerated().filter { $0.element > 0 }
          .map { "day \($0.offset) \(NumberFormat.count($0.element))" }.joined(separator: ", ") + ")."))
    }
  }

  /// Optimizely's feature flags: the launches they were on, by day, and the
  /// launches the SDK answered false for want of a datafile with the flag.
  mutating func writeFlags() {
    guard let flags = document.delivery?.flags, !flags.isEmpty else { return }
    heading(2, "Feature flags")
    paragraph(
      "Launches with each flag on, by day. A flag is read with the latest datafile the device holds, whenever the app reads "
        + "it (seed 001: \"The latest value will always be returned for a feature flag\"); a device without a datafile that "
        + "has the flag gets false, as the SDK answers on an error.")
    var launches = ReportTable(
      columns: [.init("Flag"), .init("Day", numeric: true), .init("On", numeric: true), .init("False without the flag", numeric: true)])
    for flag in flags {
      for day in 0..<document.days where flag.on[day] > 0 || flag.unknown[day] > 0 {
        launches.append(
          [flag.name, "\(day)", NumberFormat.count(flag.on[day]), NumberFormat.count(flag.unknown[day])].map { ReportText($0) })
      }
    }
    table(launches)
  }
}
