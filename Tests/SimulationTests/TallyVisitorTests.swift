import Foundation
import ScenarioFormat
import Simulation
import Testing

/// Gives every count it visits its own nonzero number.
private struct NumberingVisitor: TallyVisitor {
  var next = 0
  mutating func number() -> Int {
    next += 1
    return next
  }
  mutating func visit(_ count: inout Int) { count = number() }
  mutating func visit(_ count: inout Int128) { count = Int128(number()) }
  mutating func visit(low: inout UInt128, high: inout UInt128) {
    low = UInt128(number())
    high = UInt128(number())
  }
  mutating func visit(_ day: inout Int?, keeping _: DayBound) { day = number() }
}

/// Collects the counts in visiting order.
private struct ListingVisitor: TallyVisitor {
  var counts: [String] = []
  mutating func visit(_ count: inout Int) { counts.append("\(count)") }
  mutating func visit(_ count: inout Int128) { counts.append("\(count)") }
  mutating func visit(low: inout UInt128, high: inout UInt128) { counts += ["\(low)", "\(high)"] }
  mutating func visit(_ day: inout Int?, keeping _: DayBound) { counts.append(day.map { "\($0)" } ?? "-") }
}

/// The stored counts of a value that are still zero or absent, by their path,
/// found by reflection: what a visit did not reach. A grid's exponent is part
/// of the tally's shape, not a count.
private func unvisitedCounts(of value: Any, path: String = "tally") -> [String] {
  switch value {
  case let count as Int: return count == 0 ? [path] : []
  case let count as Int128: return count == 0 ? [path] : []
  case let count as UInt128: return count == 0 ? [path] : []
  case let count as Int?: return count == nil ? [path] : []
  default:
    return Mirror(reflecting: value).children.enumerated().flatMap { index, child -> [String] in
      guard child.label != "stepExponent" else { return [] }
      return unvisitedCounts(of: child.value, path: path + "." + (child.label ?? "[\(index)]"))
    }
  }
}

@Suite struct TallyVisitorTests {
  /// A shard's part holds what the visit reaches, so a count the visit
  /// misses would be lost between the shards and the merge.
  @Test func theVisitReachesEveryStoredCountOfEveryScenariosTally() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("scenarios").path)
      .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    #expect(names.count >= 20)
    var sawReinstalls = false
    for name in names {
      var tally = RunTally(plan: SimulationPlan(try scenario(name, devices: 10)))
      var numbering = NumberingVisitor()
      tally.visitCounts(&numbering)
      #expect(unvisitedCounts(of: tally) == [], "\(name)")
      #expect(numbering.next > 20)
      sawReinstalls = sawReinstalls || tally.service.reinstalled > 0
    }
    #expect(sawReinstalls)
  }

  @Test func theVisitingOrderIsFixed() throws {
    let plan = SimulationPlan(try scenario("upgrade", devices: 10))
    var first = RunTally(plan: plan), second = RunTally(plan: plan)
    var numbering = NumberingVisitor()
    first.visitCounts(&numbering)
    numbering = NumberingVisitor()
    second.visitCounts(&numbering)
    #expect(first == second)
    var listing = ListingVisitor()
    first.visitCounts(&listing)
    #expect(listing.counts == (1...numbering.next).map { "\($0)" })
  }

  /// The merge follows from the visit: a run's devices simulated in two
  /// ranges, each in small batches, and merged give the whole run's counts,
  /// for plans with clashes (their first and last days), remote, service and
  /// enrollment counts and 256-bit sums of squares.
  @Test(arguments: [
    "shared-key-clash", "stabilize-override", "optimizely-traffic-change", "apptimize-precondition-lapse", "upgrade",
  ])
  func twoRangesMergeToTheWholeRun(name: String) async throws {
    let plan = SimulationPlan(try scenario(name, devices: 3_000))
    let whole = await Simulator(plan: plan).run(replication: 0, threads: 1)
    let batched = Simulator(plan: plan, batchSize: 700)
    var merged = await batched.run(replication: 0, devices: 0..<1_300, threads: 2)
    merged.merge(await batched.run(replication: 0, devices: 1_300..<3_000, threads: 2))
    #expect(merged == whole)
    #expect(whole.devices == 3_000)
    if name == "shared-key-clash" {
      let clashes = whole.conflicts[0]
      try #require(clashes.devices > 0)
      #expect(clashes.firstDay! < clashes.lastDay!)
    }
  }

  /// A day merges as the earlier or the later of two, whichever its visit
  /// says; an absent day leaves the other.
  @Test func aClashsDaysMergeAsTheEarliestAndTheLatest() throws {
    let plan = SimulationPlan(try scenario("shared-key-clash", devices: 10))
    var first = RunTally(plan: plan), second = RunTally(plan: plan)
    first.conflicts[0].firstDay = 4
    first.conflicts[0].lastDay = 9
    second.conflicts[0].firstDay = 2
    second.conflicts[0].lastDay = 7
    var both = first
    both.merge(second)
    #expect(both.conflicts[0].firstDay == 2 && both.conflicts[0].lastDay == 9)
    var withNone = RunTally(plan: plan)
    withNone.merge(first)
    #expect(withNone.conflicts[0].firstDay == 4 && withNone.conflicts[0].lastDay == 9)
    first.merge(RunTally(plan: plan))
    #expect(first.conflicts[0].firstDay == 4 && first.conflicts[0].lastDay == 9)
  }
}
