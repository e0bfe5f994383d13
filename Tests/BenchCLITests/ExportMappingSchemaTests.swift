import AnalyticsTable
import Foundation
import Testing

/// The example maps in docs/examples/maps are the presets, as files a team
/// copies to describe its own tool: each reads as its preset's mapping and
/// meets docs/export-mapping.schema.json; what the schema refuses the
/// reader refuses too.
@Suite struct ExportMappingSchemaTests {
  static let schema = repositoryRoot.appendingPathComponent("docs/export-mapping.schema.json")

  @Test(arguments: ExportPreset.allCases.filter { $0 != .lab })
  func eachPresetsMapFileIsThePresetAndMeetsTheSchema(_ preset: ExportPreset) throws {
    let url = repositoryRoot.appendingPathComponent("docs/examples/maps/\(preset.rawValue).json")
    let data = try Data(contentsOf: url)
    #expect(try ExportMapping(json: [UInt8](data), path: url.path) == preset.mapping)
    #expect(try JSONSchemaCheck(schema: Data(contentsOf: Self.schema)).problems(in: data) == [])
  }

  @Test func whatTheSchemaRefusesTheReaderRefuses() throws {
    let check = try JSONSchemaCheck(schema: Data(contentsOf: Self.schema))
    let exposure = #""exposure": {"event": "x", "experiment": "a", "variant": "b"}"#
    for text in [
      #"{"event": "e", "unit": "u", "time": "t"}"#,
      #"{"event": "e", "unit": [], "time": "t", \#(exposure)}"#,
      #"{"event": "", "unit": "u", "time": "t", \#(exposure)}"#,
      #"{"event": "e", "unit": "u", "time": "t", "timeFormat": "epoch", \#(exposure)}"#,
      #"{"event": "e", "unit": "u", "time": "t", "extra": 1, \#(exposure)}"#,
      #"{"event": "e", "unit": "u", "time": "t", "exposure": {"userProperties": "p", "variant": "b"}}"#,
      #"{"event": "e", "unit": "u", "time": "t", "deduplicate": [], \#(exposure)}"#,
    ] {
      #expect(try !check.problems(in: Data(text.utf8)).isEmpty, "\(text)")
      #expect(throws: ExportMappingError.self, "\(text)") { try ExportMapping(json: Array(text.utf8), path: "m.json") }
    }
  }
}
