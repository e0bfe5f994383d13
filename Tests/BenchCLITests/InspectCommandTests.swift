import BenchCLI
import Foundation
import Testing

@Suite struct InspectCommandTests {
  /// The debug screen and the full run agree: the events inspect prints for a
  /// device are exactly that device's rows in the run's events file.
  @Test func inspectAgreesWithTheFullRunsEvents() throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent("events.csv")
    let run = try BenchProcess.run([committedScenario("upgrade"), "--devices", "300", "--replications", "1", "--quiet", "--out", out.path, "--events", events.path])
    #expect(run.status == 0)
    let rows = try String(contentsOf: events, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    for device in [3, 150, 299] {
      let result = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--devices", "300", "--device", "\(device)"])
      #expect(result.status == 0)
      let lines = result.standardOutput.split(separator: "\n")
      let eventLines = lines.drop { $0 != "Events:" }.dropFirst().prefix { $0.hasPrefix("  ") }
      let expected = rows.filter { $0[6] == "\(device)" }.map { row in
        let value = Double(row[0]) == nil ? "\"\(row[0])\"" : String(row[0])
        return "  day \(row[7]) \(row[5]) \(row[3])/\(row[2]) \(row[1])=\(value)"
      }
      #expect(eventLines.map(String.init) == (expected.isEmpty ? ["  none"] : expected), "device \(device)")
      #expect(lines.first == "Device \(device) of upgrade (seed 20261122, replication 0)")
    }
  }

  @Test func aDeviceOutsideThePopulationIsAClearError() throws {
    let result = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--devices", "10", "--device", "10"])
    #expect(result.status == 1)
    #expect(result.standardError == "Error: --device must lie between 0 and 9: the scenario has 10 devices.\n")
  }
}
