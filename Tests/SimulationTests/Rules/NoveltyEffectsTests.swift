import Foundation
import Results
import ScenarioFormat
import Testing

@testable import Simulation

/// docs/rules/NoveltyEffects.md on novelty-effects.json: Redesign lifts
/// engaged by +15% on a device's first day with it and settles at −5% with
/// a half-life of 5 days; every device launches daily from day 0 and is shown
/// the screen at each launch.
@Suite struct NoveltyEffectsTests {
  /// −0.05 + 0.2 × the mean of 2^(−t/5) over the run's `days` display days.
  private func carried(days: Int) -> Double {
    -0.05 + 0.2 * (0..<days).reduce(0.0) { $0 + exp2(-Double($1) / 5) } / Double(days)
  }

  /// Each device carries the mean of its display days' lifts: Redesign's
  /// expected mean over Classic's is 1 − 0.0224224 after 56 days and
  /// 1 + 0.0445116 after 14, to 10⁻¹²; the truth a decision is held to stays
  /// the settled −5%.
  @Test func aDeviceCarriesTheMeanOfItsDisplayDaysLifts() async throws {
    #expect(abs(carried(days: 56) + 0.0224224) < 1e-6 && abs(carried(days: 14) - 0.0445116) < 1e-6)
    for days in [56, 14] {
      let document = await run(try scenario("novelty-effects", devices: 2_000, days: days))
      let experiment = try #require(document.experiment("HomeRedesign"))
      let classic = try #require(experiment.variant("Classic")?.metrics.first)
      let redesign = try #require(experiment.variant("Redesign")?.metrics.first)
      let measured = try #require(redesign.trueMean) / (try #require(classic.trueMean)) - 1
      #expect(abs(measured - carried(days: days)) < 1e-12, "\(days) days: \(measured)")
      #expect(abs(try #require(redesign.trueLift) + 0.05) < 1e-12)
    }
  }

  /// The outcomes follow: over 40,000 devices and 14 days, Redesign's devices
  /// convert at 0.3 × 1.0445 within 4.5 binomial standard errors.
  @Test func theOutcomesAreDrawnAtTheCarriedLift() async throws {
    let document = await run(try scenario("novelty-effects", days: 14))
    let redesign = try #require(document.experiment("HomeRedesign")?.variant("Redesign")?.metrics.first)
    let conversions = try #require(redesign.conversions)
    #expect(withinBinomialBound(conversions, of: redesign.n, p: 0.3 * (1 + carried(days: 14))), "\(conversions) of \(redesign.n)")
  }

  /// A daily look reads the lift as it stood: at the end of day d every
  /// device has carried its d + 1 display days, so Redesign's expected mean
  /// over Classic's is carried(days: d + 1), to 10⁻¹², +15% on day 0; the
  /// last look is the run's own figures.
  @Test func aDailyLookReadsTheLiftAsItStood() async throws {
    let document = await run(try scenario("novelty-effects", devices: 2_000, days: 14))
    let experiment = try #require(document.experiment("HomeRedesign"))
    let classic = try #require(experiment.variants.firstIndex { $0.name == "Classic" })
    let redesign = try #require(experiment.variants.firstIndex { $0.name == "Redesign" })
    #expect(experiment.dailyMetrics.count == 14)
    for (day, look) in experiment.dailyMetrics.enumerated() {
      let measured = try #require(look[redesign][0].trueMean) / (try #require(look[classic][0].trueMean)) - 1
      #expect(abs(measured - carried(days: day + 1)) < 1e-12, "day \(day): \(measured)")
      #expect(look[redesign][0].n + look[classic][0].n == 2_000)
    }
    #expect(abs(carried(days: 1) - 0.15) < 1e-15)
    for variant in [classic, redesign] {
      let last = try #require(experiment.dailyMetrics.last?[variant][0])
      let run = try #require(experiment.variants[variant].metrics.first)
      #expect(last.n == run.n && last.conversions == run.conversions && last.trueMean == run.trueMean)
    }
  }

  /// The first look's outcomes are drawn at the first day's lift: over
  /// 40,000 devices Redesign's convert at 0.3 × 1.15 within 4.5 binomial
  /// standard errors on day 0, and at 0.3 × (1 + carried(days: 14)) on day 13.
  @Test func aDailyLooksOutcomesAreDrawnAtItsLift() async throws {
    let document = await run(try scenario("novelty-effects", days: 14))
    let experiment = try #require(document.experiment("HomeRedesign"))
    let redesign = try #require(experiment.variants.firstIndex { $0.name == "Redesign" })
    for day in [0, 13] {
      let look = experiment.dailyMetrics[day][redesign][0]
      let conversions = try #require(look.conversions)
      #expect(
        withinBinomialBound(conversions, of: look.n, p: 0.3 * (1 + carried(days: day + 1))),
        "day \(day): \(conversions) of \(look.n)")
    }
  }

  /// An initial lift equal to the settled one moves nothing: the results are
  /// the plan's without novelty, byte for byte.
  @Test func aNoveltyThatStartsWhereItSettlesChangesNothing() async throws {
    var still = try scenario("novelty-effects", devices: 2_000, days: 10)
    still.metrics[0].novelty["HomeRedesign"]?.initialLifts["Redesign"] = -0.05
    var plain = still
    plain.metrics[0].novelty = [:]
    #expect(await resultsJSON(still, threads: 2) == resultsJSON(plain, threads: 2))
  }
}
