import Platforms
import Results
import ScenarioFormat
import Simulation
import Foundation
import Testing

/// The lifecycle rules of seeds 002 and 004 run over a population, against
/// their analytic expectations: a precondition that stops holding
/// (docs/rules/ApptimizePreconditionLapse.md) and devtodev's server answers
/// and waits (DevToDevServerRefusal.md, DevToDevEmptyConfiguration.md,
/// DevToDevUserChange.md, DevToDevWaitsBeforeInitialization.md).
@Suite struct SeedLifecycleScenarioTests {
  /// Every device meets the precondition at its first launch and enrolls;
  /// at each later daily launch it lapses with a 10% chance, so by day d
  /// 1 − 0.9ᵈ have lapsed. Lapsing moves nobody: the enrolled variants are
  /// those of the same run without lapses.
  @Test func aPreconditionThatStopsHoldingLeavesTheTestButNotTheVariant() async throws {
    let plan = try scenario("apptimize-precondition-lapse")
    let enrollment = try #require(await run(plan).experiment("Price")?.enrollment)
    #expect(enrollment.conditionMet.first == 20_000)
    #expect(enrollment.conditionLapsed.count == 8 && enrollment.conditionLapsed[0] == 0)
    var lapsed = 0
    for day in 1..<8 {
      lapsed += enrollment.conditionLapsed[day]
      #expect(withinBinomialBound(lapsed, of: 20_000, p: 1 - Foundation.pow(0.9, Double(day))), "day \(day)")
    }
    var steady = plan
    steady.enrollment["Price"]?.lapseChance = 0
    let without = try #require(await run(steady).experiment("Price")?.enrollment)
    #expect(without.conditionLapsed.isEmpty)
    #expect(enrollment.variants.map(\.exposed) == without.variants.map(\.exposed))
    #expect(enrollment.variants.map(\.exposed).reduce(0, +) == 20_000)
  }

  /// One failure with chance q at every daily launch until a device
  /// applies: 1 − qᵏ enrolled after k launches, and each day every device
  /// not yet enrolled either applies or fails that way.
  private func expectEnrollsOneMinusQToTheK(_ name: String, failure: String, q: Double) async throws {
    let enrollment = try #require(await run(try scenario(name)).experiment("ButtonColor")?.enrollment)
    let applied = try #require(enrollment.handshakes.first { $0.outcome == "applied" }?.days)
    let failed = try #require(enrollment.handshakes.first { $0.outcome == failure }?.days)
    var total = 0
    for day in 0..<6 {
      #expect(applied[day] + failed[day] == 20_000 - total, "\(name): every unenrolled device tries on day \(day)")
      total += applied[day]
      #expect(withinBinomialBound(total, of: 20_000, p: 1 - Foundation.pow(q, Double(day + 1))), "\(name): day \(day)")
    }
    let others = enrollment.handshakes.filter { $0.outcome != "applied" && $0.outcome != failure }
    #expect(others.allSatisfy { $0.days.allSatisfy { $0 == 0 } }, "\(name): no other outcome")
    #expect(enrollment.variants.map(\.exposed).reduce(0, +) == total)
  }

  @Test func aServerThatRefusesHalfTheLaunchesEnrollsOneMinusAHalfToTheK() async throws {
    try await expectEnrollsOneMinusQToTheK("devtodev-server-refusal", failure: "server refused", q: 0.5)
  }

  @Test func anEmptyConfigurationAtThirtyPercentEnrollsOneMinusPointThreeToTheK() async throws {
    try await expectEnrollsOneMinusQToTheK("devtodev-empty-configuration", failure: "no test", q: 0.3)
  }

  @Test func aUserChangeDuringAQuarterOfTheOffersEnrollsOneMinusAQuarterToTheK() async throws {
    try await expectEnrollsOneMinusQToTheK("devtodev-user-change", failure: "user changed", q: 0.25)
  }

  /// A 5 s wait against a median of 5 s: set before initializing, half the
  /// launches time out (1 − 0.5ᵏ enrolled after k); set after, the SDK keeps
  /// no limit and every device enrolls at its first launch.
  @Test func waitsSetAfterInitializationAreNotUsed() async throws {
    let results = await run(try scenario("devtodev-waits-before-initialization"))
    func handshake(_ experiment: String) throws -> (active: Int, applied: [Int], timedOut: [Int]) {
      let enrollment = try #require(results.experiment(experiment)?.enrollment)
      return (
        enrollment.segments.map(\.active).reduce(0, +),
        try #require(enrollment.handshakes.first { $0.outcome == "applied" }?.days),
        try #require(enrollment.handshakes.first { $0.outcome == "configuration timed out" }?.days)
      )
    }
    let early = try handshake("EarlyWait"), late = try handshake("LateWait")
    #expect(withinBinomialBound(early.active, of: 20_000, p: 0.5))
    var total = 0
    for day in 0..<6 {
      total += early.applied[day]
      #expect(withinBinomialBound(total, of: early.active, p: 1 - Foundation.pow(0.5, Double(day + 1))), "day \(day)")
    }
    #expect(late.applied.first == late.active && late.applied.dropFirst().allSatisfy { $0 == 0 })
    #expect(late.timedOut.allSatisfy { $0 == 0 })
  }

  /// "SDK will not use new variable values that are not set in
  /// DTDRemoteConfig.defaults": a remote test gated by devtodev's handshake
  /// whose only key has no default is shown to nobody, and the events table
  /// never has the key activated; with a default, or without the handshake
  /// (Lab's remote source uses any delivered value), it is shown to every
  /// device, and every device has it activated once.
  @Test func devtodevNeverUsesAKeyWithoutADefault() async throws {
    func plan(defaults: String, handshake: Bool) throws -> Scenario {
      let text = #"""
        {"name": "defaults", "seed": 7, "devices": 2000, "days": 3,
         "versions": [{"version": "1.0", "releaseDay": 0}],
         "remote": {"defaults": \#(defaults), "changes": [{"day": 0, "add": {"name": "Banner", "keys": ["bannerText"],
           "variants": [{"name": "A", "percentage": 50, "values": {"bannerText": "Hi"}},
                        {"name": "B", "percentage": 50, "values": {"bannerText": "Hello"}}]}}]}
        """# + (handshake ? #", "enrollment": {"Banner": {"handshake": {}}}}"# : "}")
      return try Scenario.parse(Data(text.utf8)).scenario
    }
    func shown(defaults: String, handshake: Bool) async throws -> Int {
      try #require(await run(plan(defaults: defaults, handshake: handshake)).experiment("Banner")).variants.map(\.exposed).reduce(0, +)
    }
    func activated(defaults: String, handshake: Bool) async throws -> Int {
      let simulator = Simulator(plan: SimulationPlan(try plan(defaults: defaults, handshake: handshake)))
      let (_, logs) = await simulator.run(replication: 0, threads: 2, makeObserver: { [plan = simulator.plan] in EventLog(plan: plan) })
      return logs.flatMap(\.rows).filter { $0.event.assignment.key == "bannerText" && $0.event.reason == .activated }.count
    }
    #expect(try await shown(defaults: "{}", handshake: true) == 0)
    #expect(try await shown(defaults: #"{"bannerText": "Hey"}"#, handshake: true) == 2_000)
    #expect(try await shown(defaults: "{}", handshake: false) == 2_000)
    #expect(try await activated(defaults: "{}", handshake: true) == 0)
    #expect(try await activated(defaults: #"{"bannerText": "Hey"}"#, handshake: true) == 2_000)
    #expect(try await activated(defaults: "{}", handshake: false) == 2_000)
  }

  /// docs/rules/DevToDevSharedDevice.md: a quarter of the devices have a
  /// second user, the other user takes the app with a 50% chance at each of
  /// the five launches after the first. 1 − 0.5⁵ of the shared devices meet
  /// their second user, who applies once (the handshake never fails here),
  /// and every other switch gives a user the test back.
  @Test func aUserWhoStartedTheTestHasItBackOnASharedDevice() async throws {
    let enrollment = try #require(await run(try scenario("devtodev-shared-device")).experiment("ButtonColor")?.enrollment)
    let applied = try #require(enrollment.handshakes.first { $0.outcome == "applied" }?.days)
    let newUsers = enrollment.newUsers.reduce(0, +), restored = enrollment.restoredUsers.reduce(0, +)
    #expect(applied.first == 20_000)
    #expect(newUsers == applied.dropFirst().reduce(0, +))
    #expect(withinBinomialBound(newUsers, of: 20_000, p: 0.25 * (1 - Foundation.pow(0.5, 5))))
    #expect(withinBinomialBound(newUsers + restored, of: 20_000 * 5, p: 0.25 * 0.5, sigmas: 4.5 * 2))
    #expect(enrollment.newUsers.first == 0 && enrollment.restoredUsers.first == 0)
  }
}
