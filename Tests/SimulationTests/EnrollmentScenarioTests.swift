import Enrollment
import Results
import ScenarioFormat
import Analysis
import Foundation
import Testing

/// The enrollment rules measured over a population, against their analytic
/// expectations (docs/rules/ApptimizeEnrollment.md, DevToDevHandshake.md).
@Suite struct EnrollmentScenarioTests {
  /// Under the check policy every active device is enrolled; 30% are shown;
  /// the diluted estimate finds about 30% of the +30% lift, the triggered one all of it.
  @Test func checkingEnrollsEveryoneAndDilutesTheEffect() async throws {
    let results = await run(try scenario("apptimize-check-dilution"))
    let experiment = try #require(results.experiment("Price"))
    let enrollment = try #require(experiment.enrollment)
    let enrolled = enrollment.variants.map(\.exposed).reduce(0, +), shown = enrollment.shown.reduce(0, +)
    #expect(enrolled == 40_000)
    #expect(withinBinomialBound(shown, of: 40_000, p: 0.3))
    #expect(shown == experiment.variants.map(\.exposed).reduce(0, +))
    let analyzed = ExperimentAnalyzer(settings: .standard).analyze(experiment)
    let diluted = try #require(analyzed.enrollment?.analysis.first?.comparisons.first)
    let triggered = try #require(analyzed.analysis.first?.comparisons.first)
    func standardError(_ comparison: Comparison) throws -> Double {
      let interval = try #require(comparison.liftInterval)
      return (interval.upper - interval.lower) / (2 * 1.96)
    }
    let expectedDiluted = 0.3 * Double(shown) / 40_000
    #expect(abs(try #require(diluted.lift) - expectedDiluted) < 4.5 * (try standardError(diluted)))
    #expect(abs(try #require(triggered.lift) - 0.3) < 4.5 * (try standardError(triggered)))
  }

  /// apptimize-enrollment: the three policies side by side, each on a third
  /// of the devices, each shown to 30%. Allocation and check enroll every
  /// active device (the app checks on every one); run enrolls exactly those shown.
  @Test func apptimizeEnrollmentEnrollsWhomEachPolicySays() async throws {
    let results = await run(try scenario("apptimize-enrollment"))
    func counts(_ name: String) throws -> (enrolled: Int, shown: Int) {
      let enrollment = try #require(results.experiment(name)?.enrollment)
      return (enrollment.variants.map(\.exposed).reduce(0, +), enrollment.shown.reduce(0, +))
    }
    for name in ["PriceAtAllocation", "PriceAtCheck"] {
      let (enrolled, shown) = try counts(name)
      #expect(withinBinomialBound(enrolled, of: 60_000, p: 1.0 / 3), "\(name)")
      #expect(withinBinomialBound(shown, of: enrolled, p: 0.3), "\(name)")
    }
    let run = try counts("PriceAtRun")
    #expect(withinBinomialBound(run.enrolled, of: 60_000, p: 0.3 / 3))
    #expect(run.enrolled == run.shown)
  }

  /// The seed (002): "NotEnrolled … the experiment has never been launched".
  /// The devices an experiment was active on that never enrolled are counted
  /// whether or not the scenario has metrics (they were read from a metric's
  /// tally, and were 0 without one): under the run policy, every active
  /// device not shown the price, the segments' active minus enrolled.
  @Test func theNeverEnrolledAreCountedWithOrWithoutMetrics() async throws {
    for withMetrics in [true, false] {
      var plan = try scenario("apptimize-enrollment", devices: 6_000)
      if !withMetrics { plan.metrics = [] }
      let enrollment = try #require(await run(plan).experiment("PriceAtRun")?.enrollment)
      let active = enrollment.segments.map(\.active).reduce(0, +), enrolled = enrollment.segments.map(\.enrolled).reduce(0, +)
      #expect(enrolled == enrollment.variants.map(\.exposed).reduce(0, +))
      #expect(active - enrolled > 1_000, "with metrics: \(withMetrics)")
      #expect(enrollment.neverEnrolled?.exposed == active - enrolled, "with metrics: \(withMetrics)")
      #expect(enrollment.neverEnrolled?.metrics.count == plan.metrics.count)
    }
  }

  /// The run policy enrolls exactly the devices shown; allocation enrolls every active device.
  @Test func thePolicyDecidesWhoIsEnrolled() async throws {
    for (policy, expectAll) in [(EnrollmentPolicy.run, false), (.allocation, true)] {
      var plan = try scenario("apptimize-check-dilution", devices: 5_000)
      plan.enrollment["Price"]?.policy = policy
      let experiment = try #require(await run(plan).experiment("Price"))
      let enrolled = try #require(experiment.enrollment).variants.map(\.exposed).reduce(0, +)
      let shown = experiment.variants.map(\.exposed).reduce(0, +)
      #expect(enrolled == (expectAll ? 5_000 : shown), "\(policy)")
    }
  }

  /// A 40% chance per launch of going to the background during the wait:
  /// the share enrolled after k daily launches is 1 − 0.4ᵏ.
  @Test func theHandshakeEnrollsOneMinusQToTheKAfterKLaunches() async throws {
    let results = await run(try scenario("devtodev-handshake"))
    let enrollment = try #require(results.experiment("ButtonColor")?.enrollment)
    let applied = try #require(enrollment.handshakes.first { $0.outcome == "applied" }?.days)
    let cancelled = try #require(enrollment.handshakes.first { $0.outcome == "cancelled" }?.days)
    var total = 0
    for day in 0..<6 {
      total += applied[day]
      let p = 1 - Foundation.pow(0.4, Double(day + 1))
      #expect(withinBinomialBound(total, of: 20_000, p: p), "day \(day)")
      #expect(applied[day] + cancelled[day] == 20_000 - (total - applied[day]), "every unenrolled device tries on day \(day)")
    }
    #expect(enrollment.variants.map(\.exposed).reduce(0, +) == total)
  }

  /// A precondition true with a 20% chance per launch: met by 1 − 0.8ᵏ of
  /// the devices after k launches, and nobody is enrolled before it holds.
  @Test func aPreconditionBecomesTrueGradually() async throws {
    var plan = try scenario("devtodev-handshake")
    plan.enrollment["ButtonColor"] = EnrollmentRule(policy: .run, precondition: .launchChance(0.2))
    let enrollment = try #require(await run(plan).experiment("ButtonColor")?.enrollment)
    var met = 0
    for day in 0..<6 {
      met += enrollment.conditionMet[day]
      #expect(withinBinomialBound(met, of: 20_000, p: 1 - Foundation.pow(0.8, Double(day + 1))), "day \(day)")
    }
    #expect(enrollment.variants.map(\.exposed).reduce(0, +) == met)
  }

  /// Engaged users reach the precondition and convert more: the enrolled
  /// devices' estimate holds the truth, while counting the never-enrolled
  /// devices as the baseline inflates the lift far beyond it.
  @Test func countingTheNeverEnrolledAsBaselineBiasesTheLift() async throws {
    let plan = try scenario("apptimize-precondition-bias")
    #expect(plan.analysis.neverEnrolledAsBaseline)
    let experiment = try #require(await run(plan).experiment("Offer"))
    #expect(ExperimentAnalyzer(settings: .standard).analyze(experiment).enrollment?.neverEnrolledAsBaselineAnalysis == [])
    let analyzed = ExperimentAnalyzer(settings: plan.analysis).analyze(experiment)
    let enrollment = try #require(analyzed.enrollment)
    let never = try #require(enrollment.neverEnrolled)
    #expect(never.exposed > 10_000)
    let honest = try #require(enrollment.analysis.first?.comparisons.first)
    let mistaken = try #require(enrollment.neverEnrolledAsBaselineAnalysis.first?.comparisons.first)
    let honestInterval = try #require(honest.liftInterval), mistakenInterval = try #require(mistaken.liftInterval)
    let standardError = (honestInterval.upper - honestInterval.lower) / (2 * 1.96)
    #expect(abs(try #require(honest.lift) - 0.1) < 4.5 * standardError)
    #expect(mistakenInterval.lower > honestInterval.upper)
  }

  /// On cellular the configuration's median 20 s misses the 10 s wait but
  /// for a chance of Φ(ln(10/20)/0.3); with a 30% chance of the background,
  /// a cellular device enrols at a launch with q = 0.7 Φ(−2.31), and after
  /// ten days of launching with 0.8 with 1 − (1 − 0.8 q)¹⁰. The enrolled
  /// population is then nearly all Wi-Fi, and the estimate measures their effect.
  @Test func aSlowNetworkKeepsItsSegmentOutOfTheEstimate() async throws {
    let experiment = try #require(await run(try scenario("devtodev-slow-network")).experiment("ButtonColor"))
    let analyzed = ExperimentAnalyzer(settings: .standard).analyze(experiment)
    let enrollment = try #require(analyzed.enrollment)
    let cellular = try #require(enrollment.segments.first { $0.name == "cellular" })
    let q = 0.7 * 0.5 * erfc(-log(10.0 / 20) / 0.3 / 2.0.squareRoot())
    let p = 1 - Foundation.pow(1 - 0.8 * q, 10)
    #expect(withinBinomialBound(cellular.enrolled, of: cellular.active, p: p))
    let baseline = try #require(enrollment.variants[0].metrics[0].trueMean), treated = try #require(enrollment.variants[1].metrics[0].trueMean)
    let enrolledTruth = treated / baseline - 1
    #expect(enrolledTruth > 0.17)
    let comparison = try #require(enrollment.analysis.first?.comparisons.first)
    let interval = try #require(comparison.liftInterval)
    #expect(abs(try #require(comparison.lift) - enrolledTruth) < 4.5 * (interval.upper - interval.lower) / (2 * 1.96))
    #expect(comparison.trueLift.map { abs($0 - 0.1) < 1e-9 } == true)
  }
}
