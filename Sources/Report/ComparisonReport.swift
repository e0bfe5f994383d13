import Results
import ScenarioFormat

/// One plan run under several frameworks, side by side: for each experiment,
/// what the plan's changes did to the devices under each framework's rules,
/// and what the analysis concluded, against the truth. Formats what the
/// documents say; computes no statistics.
public struct ComparisonReport {
  /// One framework's run of the plan.
  public struct Run: Sendable {
    public let framework: String
    /// The analysed results of the plan expressed in the framework.
    public let document: ResultsDocument
    /// What the framework could not express, as `ComparedFramework.express` says it.
    public let notes: [String]
    /// The app versions the framework ran (a local source ships one per change).
    public let versions: [AppVersion]

    public init(framework: String, document: ResultsDocument, notes: [String], versions: [AppVersion]) {
      self.framework = framework
      self.document = document
      self.notes = notes
      self.versions = versions
    }
  }

  /// The Markdown of the comparison.
  public static func render(plan: Scenario, runs: [Run]) -> String {
    guard let service = plan.service else { return "" }
    var lines = [
      "# Lab Bench comparison: \(plan.name)", "",
    ]
    if !plan.description.isEmpty { lines += ["> \(plan.description)", ""] }
    lines.append(
      "One plan, the same changes on the same days, run under each framework's rules with the same "
        + "\(NumberFormat.count(plan.devices)) devices over \(plan.days) days (seed \(plan.seed)) and the same outcome model. "
        + "How the plan maps onto each framework is in docs/compare.md; each framework's full report is in its folder.")
    lines.append("")
    for (name, _) in service.experimentVariations {
      lines += experimentSection(name, plan: plan, service: service, runs: runs)
    }
    let notes = runs.filter { !$0.notes.isEmpty }
    if !notes.isEmpty {
      lines += ["## What each framework left out or does its own way", ""]
      for run in notes {
        for note in run.notes { lines.append("- \(run.framework): \(note).") }
      }
      lines.append("")
    }
    return lines.joined(separator: "\n")
  }

  private static func experimentSection(_ name: String, plan: Scenario, service: ServicePlan, runs: [Run]) -> [String] {
    var lines = ["## \(name)", ""]
    let metric = plan.metrics.first?.name
    let results = runs.map { run in run.document.experiments.first { $0.name == name } }
    // Every framework compares the plan's second variation with its first.
    let variations = service.experimentVariations.first { $0.name == name }?.variations ?? []
    let compared = variations.count > 1 ? variations[1] : nil
    let liftHeader = compared.map { "Lift of \($0) on \(metric ?? "–") (CI)" } ?? "Lift (CI)"
    lines.append("| Framework | Exposed | Shown two or more variations | Moved by the changes | Sample ratio check | \(liftHeader) | True lift | Verdict |")
    lines.append("|---|---:|---:|---:|---|---:|---:|---|")
    for (run, result) in zip(runs, results) {
      guard let result else {
        lines.append("| \(run.framework) | 0 | – | – | – | – | – | the experiment never ran |")
        continue
      }
      let exposed = result.variants.map(\.firstExposed).reduce(0, +)
      let mixed = exposed > 0
        ? "\(NumberFormat.count(result.mixedDevices)) (\(NumberFormat.percent(Double(result.mixedDevices) / Double(exposed), decimals: 1)))"
        : "–"
      let moved = movedByChanges(result, run: run, service: service).map { moves in
        moves.compactMap { $0 }.isEmpty ? "not counted" : NumberFormat.count(moves.compactMap { $0 }.reduce(0, +))
      } ?? "not counted"
      let srm = result.srm.map { srm in
        (srm.isMismatch ? "**mismatch**" : "passes") + " (p = \(NumberFormat.pValue(srm.pValue)))"
      } ?? "–"
      let analysis = result.analysis.first { $0.metric == metric }
      let comparison = analysis?.comparisons.first { $0.variant == compared }
      let lift = comparison.map { comparison in
        NumberFormat.signedPercent(comparison.lift) + (comparison.liftInterval.map {
          " (\(NumberFormat.signedPercent($0.lower)) to \(NumberFormat.signedPercent($0.upper)))"
        } ?? "")
      } ?? "–"
      lines.append(
        "| \(run.framework) | \(NumberFormat.count(exposed)) | \(mixed) | \(moved) | \(srm) | \(lift) | "
          + "\(NumberFormat.signedPercent(comparison?.trueLift)) | \(analysis.map(verdict) ?? "–") |")
    }
    lines.append("")
    let changes = service.changes.filter { $0.experiment == name && $0.day > 0 }
    if !changes.isEmpty {
      lines.append("Devices that changed variation at each change of the plan:")
      lines.append("")
      lines.append("| Day | Change | " + runs.map(\.framework).joined(separator: " | ") + " |")
      lines.append("|---:|---|" + runs.map { _ in "---:|" }.joined())
      for change in changes {
        let cells = zip(runs, results).map { run, result -> String in
          if run.notes.contains(where: { $0.hasPrefix("day \(change.day), \(name):") && $0.contains("left out") }) {
            return "not expressible"
          }
          guard let result, let moves = movedByChanges(result, run: run, service: service),
            let index = changes.firstIndex(of: change), let moved = moves[index]
          else { return "not counted" }
          return NumberFormat.count(moved)
        }
        lines.append("| \(change.day) | \(change) | " + cells.joined(separator: " | ") + " |")
      }
      lines.append("")
    }
    return lines
  }

  /// Devices moved by each of the experiment's changes after day 0, in
  /// order; `nil` for a change the framework's counts do not separate.
  private static func movedByChanges(_ result: ExperimentResult, run: Run, service: ServicePlan) -> [Int?]? {
    let changes = service.changes.filter { $0.experiment == result.name && $0.day > 0 }
    switch result.source {
    case "local":
      return changes.map { change in
        guard let version = run.versions.first(where: { $0.releaseDay == change.day })?.version else { return nil }
        return result.transitions.filter { $0.toVersion == version }
          .map { $0.reassigned + $0.returnedOnAnotherVariant }.reduce(0, +)
      }
    default:
      return changes.map { change in result.changes.first { $0.day == change.day }?.moved }
    }
  }

  private static func verdict(_ analysis: MetricAnalysis) -> String {
    let truth = analysis.knowsTruth ? " (truth: \(analysis.trueWinner ?? "no winner"))" : ""
    switch analysis.recommendation {
    case .ship(let name): return "ship \(name)\(truth)"
    case .keepBaseline: return "keep baseline\(truth)"
    case .keepRunning: return "keep running\(truth)"
    case .doNotTrust(.sampleRatioMismatch): return "do not trust: sample ratio mismatch\(truth)"
    case .doNotTrust(.contamination): return "do not trust: contamination\(truth)"
    case .doNotTrust(.peeking): return "do not trust: peeking\(truth)"
    case .doNotTrust(.tooFewDevices): return "do not trust: too few devices\(truth)"
    case .doNotTrust(.undefinedTest): return "do not trust: undefined test\(truth)"
    }
  }
}
