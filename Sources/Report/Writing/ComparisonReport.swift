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

  /// The comparison as a report: a section per experiment, then what each framework left out.
  public static func document(plan: Scenario, runs: [Run]) -> ReportDocument {
    guard let service = plan.service else { return ReportDocument() }
    var blocks: [ReportBlock] = [.heading(level: 1, "Lab Bench comparison: \(plan.name)")]
    if !plan.description.isEmpty { blocks.append(.quote(ReportText(authored: plan.description))) }
    blocks.append(.paragraph([ReportText(
      "One plan, the same changes on the same days, run under each framework's rules with the same "
        + "\(NumberFormat.count(plan.devices)) devices over \(plan.days) days (seed \(plan.seed)) and the same outcome model. "
        + "How the plan maps onto each framework is in docs/compare.md; each framework's full report is in its folder.")]))
    for (name, _) in service.experimentVariations {
      blocks += experimentSection(name, plan: plan, service: service, runs: runs)
    }
    let notes = runs.flatMap { run in run.notes.map { note -> ReportText in "\(run.framework): \(note)." } }
    if !notes.isEmpty {
      blocks += [.heading(level: 2, "What each framework left out or does its own way"), .list(notes)]
    }
    return ReportDocument(blocks: blocks)
  }

  private static func experimentSection(_ name: String, plan: Scenario, service: ServicePlan, runs: [Run]) -> [ReportBlock] {
    var blocks: [ReportBlock] = [.heading(level: 2, ReportText(name))]
    let metric = plan.metrics.first?.name
    let results = runs.map { run in run.document.experiments.first { $0.name == name } }
    // Every framework compares the plan's second variation with its first.
    let variations = service.experimentVariations.first { $0.name == name }?.variations ?? []
    let compared = variations.count > 1 ? variations[1] : nil
    let liftHeader = compared.map { "Lift of \($0) on \(metric ?? "–") (CI)" } ?? "Lift (CI)"
    var table = ReportTable(columns: [
      .init("Framework"), .init("Exposed", numeric: true), .init("Shown two or more variations", numeric: true),
      .init("Moved by the changes", numeric: true), .init("Sample ratio check"), .init(ReportText(liftHeader), numeric: true),
      .init("True lift", numeric: true), .init("Verdict"),
    ])
    for (run, result) in zip(runs, results) {
      guard let result else {
        table.append([ReportText(run.framework), "0", "–", "–", "–", "–", "–", "the experiment never ran"])
        continue
      }
      let exposed = result.variants.map(\.firstExposed).reduce(0, +)
      let mixed = exposed > 0
        ? "\(NumberFormat.count(result.mixedDevices)) (\(NumberFormat.percent(Double(result.mixedDevices) / Double(exposed), decimals: 1)))"
        : "–"
      let moved = movedByChanges(result, run: run, service: service).map { moves in
        moves.compactMap { $0 }.isEmpty ? "not counted" : NumberFormat.count(moves.compactMap { $0 }.reduce(0, +))
      } ?? "not counted"
      let srm = result.srm.map { srm -> ReportText in
        let check: ReportText = srm.isMismatch ? "\(strong: "mismatch")" : "passes"
        return "\(check) (p = \(NumberFormat.pValue(srm.pValue)))"
      } ?? "–"
      let analysis = result.analysis.first { $0.metric == metric }
      let comparison = analysis?.comparisons.first { $0.variant == compared }
      let lift = comparison.map { comparison in
        NumberFormat.signedPercent(comparison.lift) + (comparison.liftInterval.map {
          " (\(NumberFormat.signedPercent($0.lower)) to \(NumberFormat.signedPercent($0.upper)))"
        } ?? "")
      } ?? "–"
      table.append([
        ReportText(run.framework), ReportText(NumberFormat.count(exposed)), ReportText(mixed), ReportText(moved), srm,
        ReportText(lift), ReportText(NumberFormat.signedPercent(comparison?.trueLift)), ReportText(analysis.map(verdict) ?? "–"),
      ])
    }
    blocks.append(.table(table))
    let changes = service.changes.filter { $0.experiment == name && $0.day > 0 }
    if !changes.isEmpty {
      blocks.append(.paragraph(["Devices that changed variation at each change of the plan:"]))
      var moves = ReportTable(
        columns: [.init("Day", numeric: true), .init("Change")] + runs.map { .init(ReportText($0.framework), numeric: true) })
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
        moves.append(([String(change.day), "\(change)"] + cells).map { ReportText($0) })
      }
      blocks.append(.table(moves))
    }
    return blocks
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
