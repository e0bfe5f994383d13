import AnalyticsTable
import Foundation
import Platforms
import ScenarioFormat
import Testing

/// Tables as real exports arrive: a byte-order mark, quoted newlines,
/// foreign encodings, repeated rows, absurd days. Each once passed silently
/// or with a misleading message.
@Suite struct TableRobustnessTests {
  private let header = "variant,experiment,reason,id_for_vendor,day\n"
  private let outcomes = "id_for_vendor,metric,value\nd1,converted,1\nd2,converted,0\n"

  private func analyse(events: [UInt8], outcomes: String? = nil, options: EventsAnalysis.Options = .init()) throws -> EventsAnalysis {
    let folder = scratchFolder.appendingPathComponent("robust-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let eventsPath = folder.appendingPathComponent("e.csv").path
    try Data(events).write(to: URL(fileURLWithPath: eventsPath))
    return try EventsAnalysis(
      events: eventsPath, outcomes: temporaryFile("o.csv", outcomes ?? self.outcomes), name: "t", options: options)
  }

  private func analyse(events: String, outcomes: String? = nil, options: EventsAnalysis.Options = .init()) throws -> EventsAnalysis {
    try analyse(events: Array(events.utf8), outcomes: outcomes, options: options)
  }

  private func expectRowError(_ events: String, outcomes: String? = nil, line: Int, _ reason: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
    do {
      _ = try analyse(events: events, outcomes: outcomes)
      Issue.record("expected an error", sourceLocation: sourceLocation)
    } catch {
      guard case .malformedRow(_, let foundLine, let foundReason)? = error as? AnalyticsTableError else {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        return
      }
      #expect(foundLine == line, sourceLocation: sourceLocation)
      #expect(foundReason == reason, sourceLocation: sourceLocation)
    }
  }

  @Test func aByteOrderMarkIsNotPartOfTheFirstColumnsName() throws {
    let analysis = try analyse(events: [0xEF, 0xBB, 0xBF] + Array((header + "A,Theme,displayed,d1,0\n").utf8))
    #expect(analysis.document.experiments.map(\.name) == ["Theme"])
  }

  @Test func aRowAfterAQuotedNewlineIsReportedAtItsPhysicalLine() {
    let events = header + "\"A\nstill A\",Theme,displayed,d1,0\nB,Theme,displayed,d2,soon\n"
    expectRowError(events, line: 4, "day 'soon' is not a whole number of days from 0 to 3659 (ten years)")
  }

  @Test func crlfLineEndsAreOneLineEach() throws {
    let analysis = try analyse(events: header.replacingOccurrences(of: "\n", with: "\r\n") + "A,Theme,displayed,d1,0\r\nB,Theme,displayed,d2,1\r\n")
    #expect(analysis.document.experiments[0].variants.map(\.name) == ["A", "B"])
  }

  /// The outcomes are read beside the events: an error in the events is
  /// still the one reported, as when the events were read first.
  @Test func anErrorInTheEventsComesBeforeOneInTheOutcomes() {
    expectRowError(
      header + "A,Theme,displayed,d1,0\nB,Theme,displayed,d2,soon\n", outcomes: "id_for_vendor,metric,value\nd1,converted,x\n",
      line: 3, "day 'soon' is not a whole number of days from 0 to 3659 (ten years)")
    expectRowError(
      header + "A,Theme,displayed,d1,0\n", outcomes: "id_for_vendor,metric,value\nd1,converted,x\n",
      line: 2, "value 'x' is not a number")
  }

  /// The outcomes' devices, numbered apart while the events are read, count
  /// as if read after them: a device with outcomes alone counts, one only
  /// activated does not, and each value goes to its own device.
  @Test func outcomesReadBesideTheEventsGoToTheirDevices() throws {
    let events = header + "A,Theme,activated,d9,0\nA,Theme,displayed,d1,0\nB,Theme,displayed,d2,1\n"
    let outcomes = "id_for_vendor,metric,value\nd3,converted,1\nd2,converted,1\nd1,converted,0\nd2,revenue,5\nd3,revenue,7\n"
    let document = try analyse(events: events, outcomes: outcomes).document
    #expect(document.devices == 3)
    let variants = document.experiments[0].variants
    #expect(variants.map(\.name) == ["A", "B"])
    #expect(variants.map { $0.metrics.map(\.name) } == [["converted", "revenue"], ["converted", "revenue"]])
    #expect(variants.map { $0.metrics.map(\.mean) } == [[0, 0], [1, 5]])
  }

  @Test func anUnclosedQuoteNamesTheLineItOpened() {
    expectRowError(header + "A,Theme,displayed,d1,0\n\"B,Theme,displayed,d2,1\nC,Theme\n", line: 3,
                   "is not valid CSV: a quoted field is not closed: add the closing '\"'")
  }

  /// Two ids that differ only in invalid bytes once decoded to the same
  /// replacement characters and merged into one device.
  @Test func idsThatAreNotUTF8AreRefusedNotMerged() throws {
    let events = Array(header.utf8) + Array("A,Theme,displayed,d".utf8) + [0xFF] + Array(",0\n".utf8)
      + Array("B,Theme,displayed,d".utf8) + [0xFE] + Array(",0\n".utf8)
    do {
      _ = try analyse(events: events)
      Issue.record("expected an error")
    } catch {
      let tableError = try #require(error as? AnalyticsTableError)
      #expect(tableError == .malformedRow(
        path: tableError.path, line: 2, reason: "is not valid UTF-8: ids are compared as text, so save the table as UTF-8"))
    }
  }

  @Test func aDayBeyondTheScenarioOrTenYearsIsRefused() throws {
    for day in ["9223372036854775807", "3660", "-1"] {
      expectRowError(header + "A,Theme,displayed,d1,\(day)\n", line: 2,
                     "day '\(day)' is not a whole number of days from 0 to 3659 (ten years)")
    }
    // An epoch count of this century is named by its unit.
    expectRowError(header + "A,Theme,displayed,d1,1000000000000\n", line: 2,
                   "day '1000000000000' is not a whole number of days from 0 to 3659 (ten years); for timestamps pass --time unix-ms")
    expectRowError(header + "A,Theme,displayed,d1,1792446056429680\n", line: 2,
                   "day '1792446056429680' is not a whole number of days from 0 to 3659 (ten years); for timestamps pass --time unix-us")
    var options = EventsAnalysis.Options()
    options.scenario = try Scenario.parse(Data(#"""
      { "name": "t", "seed": 1, "devices": 10, "days": 30, "versions": [{ "version": "1", "releaseDay": 0 }] }
      """#.utf8)).scenario
    #expect(throws: AnalyticsTableError.self) { try analyse(events: header + "A,Theme,displayed,d1,30\n", options: options) }
    _ = try analyse(events: header + "A,Theme,displayed,d1,29\n", options: options)
  }

  @Test func twoOutcomesOfOneDeviceAndMetricAreRefused() {
    expectRowError(
      header + "A,Theme,displayed,d1,0\n", outcomes: outcomes + "d1,converted,0\n", line: 4,
      "repeats the converted of device d1: give each device one row per metric, or pass --outcome-events to sum them")
  }

  @Test func aBaselineTheTableLacksIsRefused() throws {
    var options = EventsAnalysis.Options()
    options.baselines = ["Theme": "Green"]
    #expect(throws: AnalyticsTableError.unknownBaseline(experiment: "Theme", variant: "Green", known: ["A", "B"], isExperiment: true)) {
      try analyse(events: header + "A,Theme,displayed,d1,0\nB,Theme,displayed,d2,0\n", options: options)
    }
    options.baselines = ["Them": "A"]
    #expect(throws: AnalyticsTableError.unknownBaseline(experiment: "Them", variant: "A", known: ["Theme"], isExperiment: false)) {
      try analyse(events: header + "A,Theme,displayed,d1,0\n", options: options)
    }
    #expect("\(AnalyticsTableError.unknownBaseline(experiment: "Theme", variant: "Green", known: ["A", "B"], isExperiment: true))"
      == "--baseline Theme=Green: 'Green' is not a variant of Theme in the table (variants: A, B)")
  }

  /// Amounts beyond a scenario's range (±10¹⁵) once summed past the largest
  /// double or overflowed the variance: the row is refused by name.
  @Test func outcomesBeyondTheAmountRangeAreRefused() {
    let events = header + "A,Theme,displayed,d1,0\nB,Theme,displayed,d2,0\n"
    for value in ["1e307", "-2e15", "1.0000001e15"] {
      expectRowError(
        events, outcomes: "id_for_vendor,metric,value\nd1,revenue,\(value)\n", line: 2,
        "value '\(value)' is beyond ±10¹⁵, the amounts the analysis keeps exact: scale the unit (cents to dollars, say)")
    }
  }

  /// Files that are no table of rows: one line of the whole file, CR-only
  /// line ends, a folder; each one line that says what it is, none a trap.
  @Test func filesThatAreNoTableSayWhatTheyAre() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("table-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(throws: AnalyticsTableError.folder(path: folder.path)) {
      try EventsAnalysis(events: folder.path, outcomes: nil, name: "t", options: EventsAnalysis.Options())
    }
    let crOnly = folder.appendingPathComponent("cr.csv")
    try Data("variant,experiment,reason,id_for_vendor,day\rA,Theme,displayed,d1,0\r".utf8).write(to: crOnly)
    #expect(
      throws: AnalyticsTableError.notATable(
        path: crOnly.path, line: 1,
        reason: "its lines end in CR alone (old Mac text): save the table with LF or CR LF line ends")
    ) { try EventsAnalysis(events: crOnly.path, outcomes: nil, name: "t", options: EventsAnalysis.Options()) }
    let endless = folder.appendingPathComponent("endless.csv")
    try Data(repeating: UInt8(ascii: "x"), count: (16 << 20) + 10).write(to: endless)
    #expect(
      throws: AnalyticsTableError.notATable(
        path: endless.path, line: 1, reason: "a record runs past 16 MB: this is not a table of rows (check the file)")
    ) { try EventsAnalysis(events: endless.path, outcomes: nil, name: "t", options: EventsAnalysis.Options()) }
    // A header of many long names lists twelve of them, each cut at 40 characters.
    let names = (0..<30).map { String(repeating: "c", count: 50) + "\($0)" }
    let message = "\(AnalyticsTableError.missingColumns(path: "w", missing: [MissingColumn(column: "variant", role: "variant")], found: names))"
    #expect(message.contains("…, ") && message.contains(" and 18 more); name the column"))
    #expect(message.count < 800)
  }

  /// Records are split on another thread a batch ahead (`RecordReadAhead`):
  /// a malformed row, or a record that is not CSV, many batches into the
  /// file is reported at its own line after every row before it was
  /// handled, and stopping there leaves no reading thread behind.
  @Test func errorsFarIntoTheFileAreReportedAtTheirLines() throws {
    var rows = header
    for device in 0..<20_000 { rows += "A,Theme,displayed,d\(device),\(device % 5)\n" }
    expectRowError(rows + "A,Theme,displayed,late,soon\n" + rows.dropFirst(header.count), line: 20_002,
                   "day 'soon' is not a whole number of days from 0 to 3659 (ten years)")
    var options = EventsAnalysis.Options()
    options.skipMalformed = true
    let skipping = try analyse(events: rows + "A,Theme,displayed,late,soon\nB,Theme,displayed,x,1\n", options: options)
    #expect(skipping.skippedRows.map(\.line) == [20_002])
    #expect(skipping.document.experiments[0].variants.map(\.exposed) == [20_000, 1])
    do {
      _ = try analyse(events: rows + "A,Theme,displayed,\"open,1\n")
      Issue.record("expected an error")
    } catch {
      #expect(error as? AnalyticsTableError == .malformedRow(
        path: (error as? AnalyticsTableError)?.path ?? "", line: 20_002,
        reason: "is not valid CSV: a quoted field is not closed: add the closing '\"'"))
    }
  }

  /// Larger than one read chunk, so that records straddle chunk boundaries.
  @Test func aTableLargerThanOneChunkIsReadWhole() throws {
    var text = header
    for device in 0..<60_000 { text += "\(device % 2 == 0 ? "A" : "B"),Theme,displayed,\"dev\(device)\",\(device % 30)\n" }
    let analysis = try analyse(events: text, outcomes: "id_for_vendor,metric,value\n")
    #expect(text.utf8.count > 1 << 20)
    #expect(analysis.document.experiments[0].variants.map(\.exposed) == [30_000, 30_000])
  }
}

extension AnalyticsTableError {
  var path: String {
    switch self {
    case .malformedRow(let path, _, _), .unreadable(let path), .missingColumns(let path, _, _), .noDisplayedEvents(let path),
      .missingFields(let path, _), .unusableMapping(let path, _), .noExposures(let path, _),
      .spanTooLong(let path, _, _), .folder(let path), .notATable(let path, _, _):
      return path
    case .unknownBaseline, .unknownSplit, .unknownMetric, .unmatchedName, .ambiguousNames: return ""
    }
  }
}
