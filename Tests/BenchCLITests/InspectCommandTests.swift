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

  /// `--find contaminated` picks the first device, in device order, that the
  /// run's own events table shows displayed two variants of one experiment;
  /// `--count 2` the first two.
  @Test func findPicksTheFirstDevicesOfAKindAsTheRunsEventsShowThem() throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent("events.csv")
    let run = try BenchProcess.run([committedScenario("upgrade"), "--devices", "300", "--replications", "1", "--quiet", "--out", out.path, "--events", events.path])
    #expect(run.status == 0)
    var shown: [String: Set<String>] = [:], contaminated: [Int] = []
    for row in try String(contentsOf: events, encoding: .utf8).split(separator: "\n").dropFirst() {
      let fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard fields[5] == "displayed", let device = Int(fields[6]) else { continue }
      let key = "\(device) \(fields[3])"
      shown[key, default: []].insert(fields[2])
      if shown[key]!.count == 2 && contaminated.last != device { contaminated.append(device) }
    }
    contaminated.sort()
    #expect(contaminated.count >= 2)
    let found = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--devices", "300", "--find", "contaminated", "--count", "2"])
    #expect(found.status == 0)
    let headings = found.standardOutput.split(separator: "\n").filter { $0.hasPrefix("Device ") && $0.contains(" is contaminated: ") }
    #expect(headings.map { $0.split(separator: " ")[1] } == contaminated.prefix(2).map { Substring(String($0)) })
    // Each found device's life is the one --device prints.
    let first = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--devices", "300", "--device", "\(contaminated[0])"])
    #expect(found.standardOutput.split(separator: "\n").dropFirst().prefix(first.standardOutput.split(separator: "\n").count)
      == first.standardOutput.split(separator: "\n")[...])
  }

  /// A kind is read from the launches: the stabilized device's life has a launch that calls stabilize, the clashed
  /// one a discarded variant; a kind no device has is one line, and so is asking for neither or both.
  @Test func findNamesWhatMadeTheDeviceOfItsKind() throws {
    let stabilized = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--devices", "300", "--find", "stabilized"])
    #expect(stabilized.status == 0)
    let lines = stabilized.standardOutput.split(separator: "\n")
    #expect(lines[0].contains(" is stabilized: stabilize was called on day "))
    #expect(lines.contains { $0.hasPrefix("Day ") && $0.hasSuffix("; calls stabilize") })
    let clashed = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--devices", "300", "--find", "clashed"])
    #expect(clashed.standardOutput.split(separator: "\n")[0].contains(" was discarded on day "))
    #expect(clashed.standardOutput.contains("and discarded "))
    // A local reassignment names the rule page that decided it.
    let deleted = try BenchProcess.run(["inspect", committedScenario("deleted-variant"), "--devices", "300", "--find", "reassigned"])
    #expect(deleted.standardOutput.split(separator: "\n")[0].hasSuffix(", at launch 1 of 2.0 (docs/rules/DeletedVariant.md)."))
    let readded = try BenchProcess.run(["inspect", committedScenario("experiment-re-added"), "--devices", "300", "--find", "reassigned"])
    #expect(readded.standardOutput.split(separator: "\n")[0].hasSuffix(" of 3.0 (docs/rules/ExperimentReAdded.md)."))
    // A service's reassignment names the dashboard change between the two launches.
    let service = try BenchProcess.run(["inspect", committedScenario("optimizely-traffic-change"), "--devices", "300", "--find", "reassigned"])
    #expect(service.standardOutput.split(separator: "\n")[0].hasSuffix(
      ", after the day-20 change (weights set to Control 4, Treatment 1) (docs/rules/OptimizelyTrafficChange.md)."))
    let concluded = try BenchProcess.run(["inspect", committedScenario("remote-conclusion"), "--devices", "300", "--find", "reassigned"])
    #expect(concluded.standardOutput.split(separator: "\n")[0].hasSuffix(" (docs/rules/RemoteConclusion.md)."))
    let none = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--devices", "50", "--find", "never-enrolled"])
    #expect(none.status == 1)
    #expect(none.standardError == "Error: --find never-enrolled: no device of the 50 in replication 0 is of that kind; try more "
      + "--devices, another replication or another kind (reassigned, contaminated, stabilized, clashed, never-enrolled).\n")
    let neither = try BenchProcess.run(["inspect", committedScenario("upgrade")])
    #expect(neither.status == 64)
    #expect(neither.standardError.hasPrefix("Error: Name a device with --device N, or a kind with --find (reassigned, "))
    let zero = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--find", "clashed", "--count", "0"])
    #expect(zero.status == 64)
    #expect(zero.standardError.hasPrefix("Error: --count must be 1 or greater.\n"))
    let both = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--device", "3", "--find", "clashed"])
    #expect(both.standardError.hasPrefix("Error: --device and --find are alternatives: give one.\n"))
  }

  /// `--find` over a billion devices would replay for hours when no device is
  /// of the kind: refused with the estimate, as `bench run` refuses a run,
  /// unless `--allow-large-run`; `--device` replays one device at any size.
  @Test func aFindBeyondTheHourIsRefusedWithItsEstimate() throws {
    let result = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--devices", "1000000000", "--find", "clashed"])
    #expect(result.status != 0)
    #expect(result.standardError.hasPrefix(
      "Error: --find replays devices until it finds one of the kind, every one of them if none is: about "), "\(result.standardError)")
    #expect(result.standardError.contains(
      " on one thread (1,000,000,000 devices), beyond the hour it takes unless asked: lower --devices, look at one device with "
        + "--device N, or add --allow-large-run."), "\(result.standardError)")
    let one = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--devices", "1000000000", "--device", "999999999"])
    #expect(one.status == 0 && one.standardOutput.hasPrefix("Device 999999999 of upgrade"), "\(one.standardError)")
  }

  /// `--find never-enrolled` finds the devices results.json counts: in
  /// apptimize-enrollment.json, whose other experiments are shown to nearly
  /// every device, the 72 of 300 on which PriceAtRun was active and its rule
  /// never enrolled them, each named with the experiment.
  @Test func neverEnrolledFindsTheDevicesResultsCount() throws {
    let folder = try temporaryFolder()
    let run = try BenchProcess.run([
      committedScenario("apptimize-enrollment"), "--devices", "300", "--replications", "1", "--out", folder.path, "--quiet",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let results = try json(folder.appendingPathComponent("apptimize-enrollment/results.json"))
    let counted = (results["experiments"] as? [[String: Any]] ?? []).compactMap { experiment -> Int? in
      guard let enrollment = experiment["enrollment"] as? [String: Any] else { return nil }
      return enrollment["neverEnrolled"] as? Int
    }.reduce(0, +)
    let found = try BenchProcess.run([
      "inspect", committedScenario("apptimize-enrollment"), "--devices", "300", "--find", "never-enrolled", "--count", "300",
    ])
    let headlines = found.standardOutput.split(separator: "\n").filter { $0.contains(" is never-enrolled: ") }
    #expect(counted == 72 && headlines.count == counted, "results.json: \(counted); inspect: \(headlines.count)")
    #expect(headlines.allSatisfy {
      $0.contains(": PriceAtRun was active (held from day ") && $0.contains(" and its enrollment rule never enrolled the device over its ")
    })
  }

  /// A launch line shows the remote values the device holds: stabilized devices on Express keep
  /// "express-v1" until the day-21 override of checkoutFlow punches the new value through
  /// (docs/rules/RemoteOverride.md), and never show "express-v2" before it.
  @Test func launchesShowTheRemoteValuesAStabilizedDeviceHolds() throws {
    let result = try BenchProcess.run(["inspect", committedScenario("stabilize-override"), "--find", "stabilized", "--count", "6"])
    #expect(result.status == 0)
    let express = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("Day ") && $0.contains("CheckoutFlow Express (remote") }
    func day(_ line: Substring) -> Int { Int(line.dropFirst(4).prefix { $0 != ":" })! }
    let before = express.filter { day($0) < 21 }, after = express.filter { day($0) > 21 }
    #expect(!before.isEmpty && !after.isEmpty)
    #expect(before.allSatisfy { $0.contains(#"checkoutFlow="express-v1""#) })
    #expect(after.allSatisfy { $0.contains(#"checkoutFlow="express-v2""#) })
  }

  @Test func aDeviceOutsideThePopulationIsAClearError() throws {
    let result = try BenchProcess.run(["inspect", committedScenario("upgrade"), "--devices", "10", "--device", "10"])
    #expect(result.status == 1)
    #expect(result.standardError == "Error: --device must lie between 0 and 9: the scenario has 10 devices.\n")
  }
}
