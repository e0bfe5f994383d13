import Expectations
import Results
import ScenarioFormat

/// What a report is made from: an analysed results document and what the
/// reader needs to know around it.
public struct ReportInput: Sendable {
  public var document: ResultsDocument
  /// One or two sentences on what was run.
  public var description: String
  public var settings: AnalysisSettings
  /// The app versions, to name the Lab rule behind each change; empty for an
  /// events table, whose history is unknown.
  public var versions: [AppVersion]
  /// Where the data came from, e.g. "a simulation of 50,000 devices" or an events file.
  public var source: String
  /// The plan's expectations checked on this run (`expect`); empty when it has none.
  public var expectations: [ExpectationOutcome] = []

  public init(document: ResultsDocument, description: String, settings: AnalysisSettings, versions: [AppVersion], source: String) {
    self.document = document
    self.description = description
    self.settings = settings
    self.versions = versions
    self.source = source
  }
}
