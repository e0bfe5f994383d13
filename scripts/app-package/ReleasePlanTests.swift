// An app's own test of the release plans it keeps in its repository, run by `swift test` in the app
// package that scripts/check-app-package.sh builds: the Pipeline product runs a plan as `bench test`
// does, and Swift Testing asserts on what it found.
import Foundation
import Pipeline
import Testing

@Suite struct ReleasePlanTests {
  /// The folder of the app's plans, beside the package.
  let plans = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("plans")

  /// The paywall plan keeps its promises: no expectation fails, and with 20 replications the decision's
  /// rates are measured but too few to tell.
  @Test func thePaywallPlanKeepsItsPromises() async throws {
    let check = try await PlanCheck.run(planAt: plans.appendingPathComponent("paywall.json").path, replications: 20)
    #expect(check.failures.isEmpty, "\(check.failures.map(\.line))")
    #expect(check.outcomes.map(\.status) == [.undecided, .undecided, .passed, .passed])
    #expect(check.document.calibration?.replications == 20)
  }

  /// The upgrade plan breaks its promise that no device is reshuffled, and says which rule did it.
  @Test func theUpgradePlanReshufflesDevices() async throws {
    let check = try await PlanCheck.run(planAt: plans.appendingPathComponent("upgrade.json").path)
    #expect(check.replications == 1)
    let failure = try #require(check.failures.first)
    #expect(failure.name == "reshuffled SubscriptionScreenTheme")
    #expect(failure.reason?.hasSuffix("(docs/rules/DeletedVariant.md)") == true)
  }
}
