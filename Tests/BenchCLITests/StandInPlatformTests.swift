@testable import BenchCLI
import Bucketing
import Foundation
import JSONDocument
import Platforms
import Results
import ScenarioFormat
import Simulation
import Testing

/// A seventh platform added the way docs/platforms.md says a new one is: one
/// type conforming to `Platform` and an entry in a registry, with no edit in
/// the scenario reader, the simulation's loop or the commands. It buckets an
/// id by FNV-1a of "experiment/id" into 10,000 buckets: the traffic takes
/// the first buckets, split among the variations in proportion to their
/// weights. Its file is `{"Experiment": [["Variation", end], ...]}`.
enum ModuloPlatform: Platform {
  static let traits = PlatformTraits(name: "modulo", vendorName: "Modulo", rerandomization: nil)
  static let configurationName = "a Modulo file"

  /// By experiment: each variation and the end of its buckets.
  struct Configuration: Sendable {
    let ends: [String: [Bucket]]
  }

  struct Bucket: Sendable {
    let variation: String
    let end: Int
  }

  static func bucket(_ experiment: String, _ id: String) -> Int {
    Int(FNV1a.hash32("\(experiment)/\(id)") % 10_000)
  }

  static func configuration(_ revision: DashboardRevision) -> Configuration {
    var ends: [String: [Bucket]] = [:]
    for experiment in revision.experiments where experiment.status == .running {
      let total = experiment.variations.reduce(0) { $0 + $1.weight }
      var cumulative = 0.0
      ends[experiment.name] = experiment.variations.map { variation in
        cumulative += variation.weight / total
        return Bucket(variation: variation.name, end: Int((cumulative * experiment.traffic * 10_000).rounded()))
      }
    }
    return Configuration(ends: ends)
  }

  static func context(attributes: [String: AttributeValue]) {}
  static func context(_ context: Void, id: String) {}

  static func variation(of experiment: String, in configuration: Configuration, id: String, context: Void, store: inout Void)
    -> String?
  {
    let bucket = bucket(experiment, id)
    return configuration.ends[experiment]?.first { bucket < $0.end }?.variation
  }

  static func decisions(config: Data, ids: [String], attributes: BucketAttributes, flags: Bool, now: Date) throws
    -> BucketDecisions
  {
    guard case .object(let experiments) = try JSONValue.parse(config) else { throw PlatformInputError("a Modulo file is an object") }
    var ends: [String: [Bucket]] = [:]
    for (name, value) in experiments {
      guard case .array(let pairs) = value else { throw PlatformInputError("\(name) must be an array") }
      ends[name] = try pairs.map { pair in
        guard case .array(let members) = pair, members.count == 2, case .string(let variation) = members[0],
          case .integer(let end) = members[1]
        else { throw PlatformInputError("\(name): each entry is [variation, end]") }
        return Bucket(variation: variation, end: Int(end))
      }
    }
    let configuration = Configuration(ends: ends)
    let lines = ids.flatMap { id in
      experiments.keys.sorted().map { name in
        var nothingStored: Void = ()
        return BucketLine.experiment(BucketRow(
          id: id, experiment: name, variation: variation(of: name, in: configuration, id: id, context: (), store: &nothingStored),
          bucket: Double(bucket(name, id)), reason: "bucketed"))
      }
    }
    return BucketDecisions(lines: lines, problems: [])
  }
}

@Suite struct StandInPlatformTests {
  let registry = PlatformRegistry(PlatformRegistry.standard.plugins + [ModuloPlatform.self])

  /// Optimizely's traffic-change plan (scenarios/optimizely-traffic-change.json) run on the stand-in.
  func plan() throws -> Scenario {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("scenarios/optimizely-traffic-change.json"), encoding: .utf8)
    let data = Data(text.replacingOccurrences(of: #""framework": "optimizely""#, with: #""framework": "modulo""#).utf8)
    return try Scenario.parse(data, platforms: registry.traits).scenario
  }

  @Test func aScenarioNamesThePlatformWhereItsRegistryHasIt() throws {
    let scenario = try plan()
    #expect(scenario.service?.framework == ModuloPlatform.traits)
    #expect(scenario.service?.sticky == false)
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("scenarios/optimizely-traffic-change.json"), encoding: .utf8)
    let data = Data(text.replacingOccurrences(of: #""framework": "optimizely""#, with: #""framework": "modulo""#).utf8)
    let unknown = #expect(throws: ScenarioError.self) { try Scenario.parse(data) }
    #expect(unknown?.message == #"must be one of "optimizely", "growthbook", "launchdarkly", "statsig", "eppo", "unleash""#)
    // Its traits decide what the reader accepts: no bucket versions, so no re-randomization.
    let rerandomized = Data(
      text.replacingOccurrences(of: #""framework": "optimizely""#, with: #""framework": "modulo""#)
        .replacingOccurrences(
          of: #"{"day": 20, "setWeights": {"experiment": "Paywall", "weights": {"Control": 4, "Treatment": 1}}}"#,
          with: #"{"day": 20, "newBucketVersion": {"experiment": "Paywall"}}"#).utf8)
    let refused = #expect(throws: ScenarioError.self) { try Scenario.parse(rerandomized, platforms: self.registry.traits) }
    #expect(refused?.message == "does not apply to modulo, which has no bucket versions, seeds or salts to change (remove the change)")
  }

  /// Every device launches daily with a reliable fetch, so each crosses both
  /// changes; what the stand-in's rule does to each id is counted here from
  /// the rule itself, and the simulation must count the same, device for device.
  @Test func theSimulationDecidesByThePlugInDeviceForDevice() async throws {
    let scenario = try plan()
    let simulator = Simulator(plan: SimulationPlan(scenario, platforms: registry))
    let results = ResultsDocument(plan: simulator.plan, tally: await simulator.run(replication: 0, threads: 2))
    let experiment = try #require(results.experiments.first { $0.name == "Paywall" })
    #expect(experiment.source == "modulo")
    func variation(_ id: String, traffic: Double, control: Double) -> String? {
      let bucket = ModuloPlatform.bucket("Paywall", id)
      let controlEnd = Int((control * traffic * 10_000).rounded()), end = Int((traffic * 10_000).rounded())
      return bucket < controlEnd ? "Control" : bucket < end ? "Treatment" : nil
    }
    struct Moves: Equatable {
      var kept = 0, moved = 0, entered = 0, left = 0
      mutating func count(_ before: String?, _ after: String?) {
        switch (before, after) {
        case (nil, nil): break
        case (nil, _): entered += 1
        case (_, nil): left += 1
        case let (before, after): if before == after { kept += 1 } else { moved += 1 }
        }
      }
    }
    var opening = Moves(), reweighting = Moves()
    for device in 0..<scenario.devices {
      let id = "device-\(device)"
      let half = variation(id, traffic: 0.5, control: 0.5), all = variation(id, traffic: 1, control: 0.5)
      opening.count(half, all)
      reweighting.count(all, variation(id, traffic: 1, control: 0.8))
    }
    let changes = experiment.changes
    #expect(changes.map { $0.day } == [0, 10, 20])
    #expect(Moves(kept: changes[1].kept, moved: changes[1].moved, entered: changes[1].entered, left: changes[1].left) == opening)
    #expect(Moves(kept: changes[2].kept, moved: changes[2].moved, entered: changes[2].entered, left: changes[2].left) == reweighting)
    #expect(opening.entered > 9_000 && reweighting.moved > 5_000)
  }

  /// `bench compare` lists it after Lab's sources and the six, and expresses the plan on it.
  @Test func compareRunsThePlanOnIt() throws {
    let frameworks = ComparedFramework.all(platforms: registry.traits)
    #expect(frameworks.map(\.name) == [
      "lab-local", "lab-remote", "optimizely", "growthbook", "launchdarkly", "statsig", "eppo", "unleash", "modulo",
    ])
    let (expressed, notes) = try ComparedFramework.platform(ModuloPlatform.traits).express(try plan())
    #expect(expressed.service?.framework.name == "modulo")
    #expect(notes.isEmpty)
  }

  /// `bench bucket` and `bench impact` reach it through the same choice the commands parse `--framework` into.
  @Test func bucketAndImpactDecideWithIt() throws {
    let before = Data(#"{"Paywall": [["Control", 5000], ["Treatment", 10000]]}"#.utf8)
    let after = Data(#"{"Paywall": [["Control", 8000], ["Treatment", 10000]]}"#.utf8)
    let ids = (0..<1_000).map { "user-\($0)" }
    let choice = PlatformChoice(ModuloPlatform.self)
    let old = try choice.decide(config: before, ids: ids, attributes: "{}").lines
    let new = try choice.decide(config: after, ids: ids, attributes: "{}").lines
    #expect(old.first?.text == "user-0 Paywall: \(ModuloPlatform.bucket("Paywall", "user-0") < 5000 ? "Control" : "Treatment") "
      + "(bucket \(ModuloPlatform.bucket("Paywall", "user-0")), bucketed)")
    let buckets = ids.map { ModuloPlatform.bucket("Paywall", $0) }
    let moved = buckets.filter { (5000..<8000).contains($0) }.count
    let control = buckets.filter { $0 < 5000 }.count
    let text = Bench.Impact.text(Bench.Impact.moves(before: old, after: new, ids: ids), ids: ids.count)
    #expect(text == """
      Paywall: \(moved) of 1000 ids move (\(String(format: "%.1f", Double(moved) / 10))%)
        Control → Control: \(control)
        Treatment → Control: \(moved) (move)
        Treatment → Treatment: \(1000 - control - moved)
      """)
  }
}
