import Analysis
import Expectations
import Report
import Results
import ScenarioFormat

/// The one way from counts to an analysed document and its report model,
/// which Markdown and HTML each render. A simulated run (`SimulatedRun`, for
/// `bench`, `merge`, `test` and `perf`), each framework of `bench compare`, a
/// real export read by `bench analyze` and the fuzz targets all go through it,
/// so that the same counts under the same settings give the same document and
/// report wherever they come from.
public struct AnalysisPipeline: Sendable {
  /// The tests, decisions and engines the analysis applies.
  public var settings: AnalysisSettings
  /// One or two sentences on what was run, for the report.
  public var description: String
  /// The app versions, to name the Lab rule behind each change; empty for an export, whose history is
  /// unknown.
  public var versions: [AppVersion]
  /// Where the counts came from, as the report says it: "Simulated", or the export's file name.
  public var source: String

  public init(settings: AnalysisSettings, description: String = "", versions: [AppVersion] = [], source: String) {
    self.settings = settings
    self.description = description
    self.versions = versions
    self.source = source
  }

  /// A simulation of `scenario`: its analysis settings, description and versions.
  public init(simulating scenario: Scenario) {
    self.init(settings: scenario.analysis, description: scenario.description, versions: scenario.versions, source: "Simulated")
  }

  /// `document`'s counts analysed: the tests, decisions and engines' pages. A pure function of the
  /// document and the settings, so replications can be analysed on any thread.
  public func analyze(_ document: ResultsDocument) -> ResultsDocument {
    ExperimentAnalyzer(settings: settings).analyze(document)
  }

  /// The report of `document`, which this pipeline analysed, with the plan's `expectations` checked
  /// on it (none for an export).
  public func report(_ document: ResultsDocument, expectations: [ExpectationOutcome] = []) -> ReportDocument {
    var input = ReportInput(document: document, description: description, settings: settings, versions: versions, source: source)
    input.expectations = expectations
    return ReportDocument(input)
  }
}
