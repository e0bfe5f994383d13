import Foundation
import Lab
import Platforms
import Results
import ScenarioFormat
import Testing

@testable import Expectations

/// Expectations are checked against the figures a run's results already
/// hold, with exact arithmetic, and a rate over replications by its interval.
@Suite struct ExpectationCheckTests {
  @Test func countsAreGroupedAsTheReportGroupsThem() {
    #expect(CountText.grouped(0) == "0")
    #expect(CountText.grouped(999) == "999")
    #expect(CountText.grouped(1_000) == "1,000")
    #expect(CountText.grouped(45_091) == "45,091")
    #expect(CountText.grouped(-1_234_567) == "-1,234,567")
    #expect(CountText.grouped(Int.min) == "-9,223,372,036,854,775,808")
  }

  /// A plan of two versions: 2.0 deletes Red from Theme.
  private func scenario(expect: String) throws -> Scenario {
    let text = """
      { "name": "plan", "seed": 1, "devices": 100, "days": 10, "expect": \(expect), "enrollment": { "Theme": {} },
        "versions": [
          { "version": "1.0", "releaseDay": 0, "experiments": [ { "name": "Theme", "keys": ["color"],
            "variants": [ { "name": "Blue", "assignments": { "color": "blue" } }, { "name": "Red", "assignments": { "color": "red" } } ] } ] },
          { "version": "2.0", "releaseDay": 5, "adoption": { "meanDelayDays": 1, "neverUpgradeShare": 0 }, "experiments": [ { "name": "Theme", "keys": ["color"],
            "variants": [ { "name": "Blue", "assignments": { "color": "blue" } } ] } ] } ] }
      """
    return try Scenario.parse(Data(text.utf8)).scenario
  }

  /// 40 devices upgraded holding a variant: 30 kept Blue, 10 held the deleted Red and were reassigned;
  /// 3 of 90 first exposed saw both variants; 7 devices got `color` from Theme and another experiment;
  /// of 100 devices on which Theme was active, 20 never enrolled.
  private func document(decision: DecisionRates? = nil) -> ResultsDocument {
    let transition = TransitionResult(
      fromVersion: "1.0", toVersion: "2.0", devices: 45, kept: 30, reassigned: 10, deactivated: 0, activated: 5, returned: 0,
      returnedOnAnotherVariant: 0)
    let variants = [("Blue", 60), ("Red", 30)].map {
      VariantResult(name: $0.0, weight: 1, exposed: $0.1, contaminated: 0, firstExposed: $0.1, expectedFirstExposed: nil, metrics: [])
    }
    var theme = ExperimentResult(
      name: "Theme", source: "local", baseline: "Blue", variants: variants, mixedDevices: 3, transitions: [transition],
      dailyNewExposures: [], dailyMetrics: [],
      srm: SRMResult(expected: [0.5, 0.5], statistic: 10, degreesOfFreedom: 1, pValue: 0.0016, isMismatch: false), analysis: [])
    // The rule enrolled 80 of the 100 devices on which Theme was active.
    var enrollment = EnrollmentRuleResult(
      policy: "run", variants: variants.map { var enrolled = $0; enrolled.exposed = 40; return enrolled }, shown: [40, 40],
      conditionMet: [], handshakes: [])
    enrollment.neverEnrolled = VariantResult(
      name: "never enrolled", weight: nil, exposed: 20, contaminated: 0, firstExposed: 20, expectedFirstExposed: nil, metrics: [])
    theme.enrollment = enrollment
    var document = ResultsDocument(
      scenario: "plan", seed: 1, devices: 100, days: 10, replications: decision == nil ? 1 : 200, launches: 0, stabilizedDevices: 0,
      experiments: [theme], conflicts: [ConflictResult(key: "color", experiments: ["Theme", "Other"], devices: 7, served: [])],
      calibration: nil)
    if let decision {
      document.calibration = Calibration(replications: 200, experiments: [ExperimentCalibration(name: "Theme", decision: decision, metrics: [])])
    }
    return document
  }

  @Test func sharesAndCountsAreMeasuredExactly() throws {
    let plan = try scenario(expect: """
      [ { "that": "reshuffled", "experiment": "Theme", "atMost": 0.25 },
        { "that": "reshuffled", "experiment": "Theme", "version": "2.0", "atMost": 0.2 },
        { "that": "mixed", "experiment": "Theme", "atMost": 0.05 },
        { "that": "keyClashes", "atMost": 7 },
        { "that": "keyClashes", "key": "color", "atMost": 6 },
        { "that": "sampleRatioMismatch", "experiment": "Theme", "fires": false },
        { "that": "rule", "rule": "DeletedVariant", "fires": true },
        { "that": "rule", "rule": "ExperimentReAdded", "fires": true },
        { "that": "neverEnrolled", "experiment": "Theme", "atMost": 0.2 },
        { "that": "neverEnrolled", "experiment": "Theme", "atMost": 0.19 } ]
      """)
    let outcomes = ExpectationCheck.check(plan, against: document())
    #expect(outcomes.map(\.line) == [
      "PASS reshuffled Theme: 25.0% (at most 25.0%)",
      "FAIL reshuffled Theme into 2.0: 25.0% (at most 20.0%): 1.0 → 2.0 moved 10 of 40 devices to another variant "
        + "(docs/rules/DeletedVariant.md)",
      "PASS mixed Theme: 3.3% (at most 5.0%)",
      "PASS key clashes: 7 devices (at most 7 devices)",
      "FAIL key clashes on color: 7 devices (at most 6 devices): Theme and Other serve color on 7 devices",
      "PASS sample ratio mismatch in Theme: no mismatch, p = 0.002 (never)",
      "PASS rule DeletedVariant (docs/rules/DeletedVariant.md): 10 devices (at least once)",
      "FAIL rule ExperimentReAdded (docs/rules/ExperimentReAdded.md): 0 devices (at least once): no upgrade meets it",
      "PASS never enrolled in Theme: 20.0% (at most 20.0%)",
      "FAIL never enrolled in Theme: 20.0% (at most 19.0%): 20 of the 100 devices on which Theme was active never enrolled",
    ])
    #expect(outcomes.map(\.status) == [.passed, .failed, .passed, .passed, .failed, .passed, .passed, .failed, .passed, .failed])
  }

  /// A rate fails only when its whole interval is beyond the bound, passes when the whole interval
  /// keeps it, and is undecided in between; without replications or a truth it cannot be measured.
  @Test func aRateIsJudgedByItsInterval() throws {
    let plan = try scenario(expect: """
      [ { "that": "rightShip", "experiment": "Theme", "atLeast": 0.8 },
        { "that": "wrongShip", "experiment": "Theme", "atMost": 0.05 } ]
      """)
    func rates(right: Share, wrong: Share, knowsTruth: Bool = true) -> DecisionRates {
      let none = Share(count: 0, of: 200, lower: 0, upper: 0.019)
      return DecisionRates(
        rightShip: right, wrongShip: wrong, keepBaseline: none, keepRunning: none, withheld: none, wrongSign: none,
        devicesPerVariant: nil, smallestArm: 50, knowsTruth: knowsTruth)
    }
    func statuses(_ decision: DecisionRates?) -> [ExpectationOutcome.Status] {
      ExpectationCheck.check(plan, against: document(decision: decision)).map(\.status)
    }
    // 180 of 200 (Wilson 95%: 0.851 to 0.934) and 2 of 200 (0.003 to 0.036): both kept.
    let clear = rates(right: Share(count: 180, of: 200, lower: 0.851, upper: 0.934), wrong: Share(count: 2, of: 200, lower: 0.003, upper: 0.036))
    #expect(statuses(clear) == [.passed, .passed])
    // 160 of 200 (0.739 to 0.849) holds 0.8; 14 of 200 (0.042 to 0.114) holds 0.05.
    let close = rates(right: Share(count: 160, of: 200, lower: 0.739, upper: 0.849), wrong: Share(count: 14, of: 200, lower: 0.042, upper: 0.114))
    #expect(statuses(close) == [.undecided, .undecided])
    // 140 of 200 (0.633 to 0.759) and 30 of 200 (0.107 to 0.206): wholly beyond.
    let beyond = rates(right: Share(count: 140, of: 200, lower: 0.633, upper: 0.759), wrong: Share(count: 30, of: 200, lower: 0.107, upper: 0.206))
    #expect(statuses(beyond) == [.failed, .failed])
    let lines = ExpectationCheck.check(plan, against: document(decision: beyond)).map(\.line)
    #expect(lines[0] == "FAIL Theme ships a true winner: 70.0% of 200 replications (95% interval 63.3% to 75.9%) (at least 80.0%): "
      + "the interval lies wholly beyond the bound")
    #expect(statuses(nil) == [.undecided, .undecided])
    #expect(ExpectationCheck.check(plan, against: document()).first?.reason
      == "a rate needs the plan's replications: run it with --replications 2 or more")
    #expect(statuses(rates(right: clear.rightShip, wrong: clear.wrongShip, knowsTruth: false)) == [.undecided, .undecided])
  }

  @Test func percentagesAreRoundedToATenth() {
    #expect(ExpectationCheck.percent(0) == "0.0%")
    #expect(ExpectationCheck.percent(1) == "100.0%")
    #expect(ExpectationCheck.percent(0.2525) == "25.3%")
    #expect(ExpectationCheck.percent(1 / 30) == "3.3%")
  }
}
