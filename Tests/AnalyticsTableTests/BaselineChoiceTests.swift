import AnalyticsTable
import Foundation
import ScenarioFormat
import Testing

/// docs/analyze.md, "Baselines": a baseline comes from `--baseline`, the scenario (service and remote
/// plans included), the export's own marker, a control's name or the only variant, never from the
/// order of the rows unless nothing settles it, and then the run says so.
@Suite struct BaselineChoiceTests {
  /// A treatment's exposures first, as a warehouse query sorted by time returns them.
  private let treatmentFirst = """
    id_for_vendor,experiment,variant,reason,day
    d1,Paywall,annual_first,displayed,0
    d2,Paywall,Control,displayed,0
    d3,Paywall,annual_first,displayed,1
    d4,Paywall,Control,displayed,1

    """

  private func analysis(_ events: String, _ configure: (inout EventsAnalysis.Options) throws -> Void = { _ in }) throws
    -> EventsAnalysis
  {
    var options = EventsAnalysis.Options()
    try configure(&options)
    return try EventsAnalysis(events: temporaryFile("e.csv", events), outcomes: nil, name: "t", options: options)
  }

  private func baseline(_ analysis: EventsAnalysis, _ experiment: String = "Paywall") -> (String?, String?) {
    let result = analysis.document.experiments.first { $0.name == experiment }
    return (result?.baseline, result?.baselineReason)
  }

  @Test func aControlsNameWinsOverTheOrderOfTheRows() throws {
    let read = try analysis(treatmentFirst)
    #expect(baseline(read) == ("Control", "named as a control is"))
    #expect(read.baselines["Paywall"]?.reason == .controlName)
    // Named as teams name controls, whatever the case and separators.
    for name in ["control", "CONTROL", "control_group", "Control Group", "baseline", "Off", "default", "original"] {
      let renamed = try analysis(treatmentFirst.replacingOccurrences(of: "Control", with: name))
      #expect(baseline(renamed).0 == name, "\(name)")
    }
  }

  @Test func theOptionThenTheScenarioComeFirst() throws {
    let given = try analysis(treatmentFirst) { $0.baselines = ["Paywall": "annual_first"] }
    #expect(baseline(given) == ("annual_first", "given with --baseline"))
    // A service plan's experiment: its first variation, as the simulation takes it.
    let service = try Scenario.load(path: repositoryRoot.appendingPathComponent("scenarios/growthbook-weight-change.json").path)
      .scenario
    let checkout = treatmentFirst.replacingOccurrences(of: "Paywall", with: "Checkout")
      .replacingOccurrences(of: "annual_first", with: "Express").replacingOccurrences(of: "Control", with: "Classic")
    let planned = try analysis(checkout) { $0.scenario = service }
    #expect(baseline(planned, "Checkout") == ("Classic", "the scenario's"))
    // A remote source's experiment: its first variant.
    let remote = try Scenario.load(path: repositoryRoot.appendingPathComponent("scenarios/koma-remote-values.json").path)
      .scenario
    let paywallType = treatmentFirst.replacingOccurrences(of: "Paywall", with: "PaywallType")
      .replacingOccurrences(of: "annual_first", with: "A").replacingOccurrences(of: "Control", with: "Baseline")
    #expect(baseline(try analysis(paywallType) { $0.scenario = remote }, "PaywallType") == ("Baseline", "the scenario's"))
  }

  /// Firebase A/B Testing makes variant 0 every experiment's baseline: its preset says so, and the
  /// export's own baseline comes after the option and the scenario, before a control's name.
  @Test func theExportsOwnBaselineComesBeforeNames() throws {
    let firebase = try #require(ExportPreset.firebase.mapping)
    #expect(firebase.baseline == "0")
    let variants = ["2", "Control", "0"]
    let choose = { (option: String?) in
      BaselineChoice.choose(experiment: "firebase_exp_3", variants: variants, option: option, scenario: nil, mapping: firebase)
    }
    #expect(choose(nil) == BaselineChoice(variant: "0", reason: .export))
    #expect(choose(nil).why == "the export's own baseline")
    #expect(choose("2") == BaselineChoice(variant: "2", reason: .option))
    // Where the export's baseline is not among the variants, the names decide.
    #expect(
      BaselineChoice.choose(experiment: "e", variants: ["2", "Control"], option: nil, scenario: nil, mapping: firebase)
        == BaselineChoice(variant: "Control", reason: .controlName))
    #expect(ExportPreset.amplitude.mapping?.baseline == nil)
  }

  @Test func withNothingToSettleItTheFirstVariantStandsInAndSaysSo() throws {
    let unnamed = treatmentFirst.replacingOccurrences(of: "Control", with: "monthly_first")
    #expect(
      baseline(try analysis(unnamed))
        == ("annual_first", "the first variant in the file, as nothing settles it: give --baseline"))
    // Two variants named as controls are settle nothing either.
    let two = treatmentFirst.replacingOccurrences(of: "annual_first", with: "baseline")
    #expect(try analysis(two).baselines["Paywall"]?.reason == .firstInFile)
    // One variant is its own baseline.
    let one = "id_for_vendor,experiment,variant,reason,day\nd1,Paywall,annual_first,displayed,0\n"
    #expect(try analysis(one).baselines["Paywall"]?.reason == .onlyVariant)
  }
}
