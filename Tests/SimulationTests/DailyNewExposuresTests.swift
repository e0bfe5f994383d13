import Results
import Testing

/// `dailyNewExposures` counts what its name says: each device once per
/// variant, on the day it was first shown that variant.
@Suite struct DailyNewExposuresTests {
  /// Every device launches and is shown its variant every day of 2.0's run,
  /// yet counts only on day 0; rule 3's reassigned devices count again under
  /// their new variant on the day 2.0 reaches them.
  @Test func aDeviceCountsOnceOnTheDayItFirstSeesEachVariant() async throws {
    let results = await run(try scenario("deleted-variant"))
    let experiment = try #require(results.experiment("Onboarding"))
    for (variant, days) in zip(experiment.variants, experiment.dailyNewExposures) {
      #expect(days.reduce(0, +) == variant.exposed, "\(variant.name)")
    }
    let a = try #require(experiment.variants.firstIndex { $0.name == "A" })
    let c = try #require(experiment.variants.firstIndex { $0.name == "C" })
    #expect(experiment.dailyNewExposures.map { $0[0] }.reduce(0, +) == 20_000)
    #expect(experiment.dailyNewExposures[c][0] == 0)
    let release = try #require(experiment.dailyNewExposures[c].firstIndex { $0 > 0 })
    #expect(experiment.dailyNewExposures[c][release...].reduce(0, +) == experiment.variants[c].exposed)
    #expect(experiment.dailyNewExposures[a][release] == experiment.variants[a].contaminated)
  }
}
