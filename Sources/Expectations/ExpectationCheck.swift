import Lab
import Results
import ScenarioFormat

/// Checks a plan's expectations against the figures its report computes:
/// the first replication's counts, and for decisions the calibration over all
/// replications. Nothing is simulated or analysed again here.
public enum ExpectationCheck {
  /// Each of the scenario's expectations, in order, against `document` (the
  /// run's results.json, with its calibration when it had replications).
  public static func check(_ scenario: Scenario, against document: ResultsDocument) -> [ExpectationOutcome] {
    scenario.expectations.map { check($0, scenario: scenario, document: document) }
  }

  private static func check(_ expectation: PlanExpectation, scenario: Scenario, document: ResultsDocument) -> ExpectationOutcome {
    func experiment(_ name: String) -> ExperimentResult? { document.experiments.first { $0.name == name } }
    func outcome(_ name: String, measured: Double, shown: String, reason: String? = nil) -> ExpectationOutcome {
      let kept = kept(measured, expectation.bound)
      return ExpectationOutcome(
        expectation: expectation, status: kept ? .passed : .failed, name: name, measured: shown,
        bound: boundText(expectation.bound, share: true), reason: kept ? nil : reason)
    }
    switch expectation.measure {
    case .reshuffled(let name, let version):
      let label = "reshuffled \(name)" + (version.map { " into \($0)" } ?? "")
      let transitions = (experiment(name)?.transitions ?? []).filter { version == nil || $0.toVersion == version }
      let worst = transitions.map { (transition: $0, share: reshuffledShare($0)) }.max { $0.share < $1.share }
      guard let worst else { return outcome(label, measured: 0, shown: "no device upgraded") }
      let moved = worst.transition.reassigned + worst.transition.returnedOnAnotherVariant
      let reason = "\(worst.transition.fromVersion) → \(worst.transition.toVersion) moved \(count(moved)) of "
        + "\(count(reshuffledBase(worst.transition))) devices to another variant"
        + (rulePage(reshuffling: worst.transition, of: name, versions: scenario.versions).map { " (\($0))" } ?? "")
      return outcome(label, measured: worst.share, shown: percent(worst.share), reason: reason)
    case .mixed(let name):
      let result = experiment(name)
      let devices = result?.variants.map(\.firstExposed).reduce(0, +) ?? 0
      let mixed = result?.mixedDevices ?? 0
      let share = devices > 0 ? Double(mixed) / Double(devices) : 0
      return outcome(
        "mixed \(name)", measured: share, shown: percent(share),
        reason: "\(count(mixed)) of \(count(devices)) devices were shown more than one variant")
    case .moved(let name):
      let changes = experiment(name)?.changes ?? []
      let worst = changes.map { change in
        (change: change, share: change.kept + change.moved > 0 ? Double(change.moved) / Double(change.kept + change.moved) : 0)
      }.max { $0.share < $1.share }
      guard let worst else { return outcome("moved \(name)", measured: 0, shown: "no dashboard change") }
      return outcome(
        "moved \(name)", measured: worst.share, shown: percent(worst.share),
        reason: "day \(worst.change.day), \(worst.change.change), moved \(count(worst.change.moved)) of "
          + "\(count(worst.change.kept + worst.change.moved)) devices it reached to another variation")
    case .rightShip(let name), .wrongShip(let name):
      let right: Bool
      if case .rightShip = expectation.measure { right = true } else { right = false }
      return rate(
        expectation, name: "\(name) ships \(right ? "a true winner" : "a wrong variant")",
        decision: document.calibration?.experiments.first { $0.name == name }?.decision, right: right)
    case .neverEnrolled(let name):
      let enrollment = experiment(name)?.enrollment
      let never = enrollment?.neverEnrolled?.exposed ?? 0
      let active = never + (enrollment?.variants.map(\.exposed).reduce(0, +) ?? 0)
      let share = active > 0 ? Double(never) / Double(active) : 0
      return outcome(
        "never enrolled in \(name)", measured: share, shown: percent(share),
        reason: "\(count(never)) of the \(count(active)) devices on which \(name) was active never enrolled")
    case .keyClashes(let key):
      let devices = document.conflicts.filter { key == nil || $0.key == key }.map(\.devices).reduce(0, +)
      let clash = document.conflicts.filter { key == nil || $0.key == key }.max { $0.devices < $1.devices }
      return ExpectationOutcome(
        expectation: expectation, status: kept(Double(devices), expectation.bound) ? .passed : .failed,
        name: "key clashes" + (key.map { " on \($0)" } ?? ""), measured: "\(count(devices)) device\(devices == 1 ? "" : "s")",
        bound: boundText(expectation.bound, share: false),
        reason: kept(Double(devices), expectation.bound)
          ? nil : clash.map { "\($0.experiments.joined(separator: " and ")) serve \($0.key) on \(count($0.devices)) devices" })
    case .sampleRatioMismatch(let name):
      let srm = experiment(name)?.srm
      let fired = srm?.isMismatch ?? false
      let shown = srm?.pValue.map { "p = \(significant($0))" } ?? "not tested"
      return ExpectationOutcome(
        expectation: expectation, status: kept(fired ? 1 : 0, expectation.bound) ? .passed : .failed,
        name: "sample ratio mismatch in \(name)", measured: (fired ? "mismatch, " : "no mismatch, ") + shown,
        bound: boundText(expectation.bound, share: false, firing: true),
        reason: kept(fired ? 1 : 0, expectation.bound) ? nil : "the devices' split \(fired ? "differs from" : "follows") the weights")
    case .rule(let rule):
      let met = devices(meeting: rule, scenario: scenario, document: document)
      let devices = met.map(\.devices).reduce(0, +)
      let worst = met.max { $0.devices < $1.devices }
      return ExpectationOutcome(
        expectation: expectation, status: kept(Double(devices), expectation.bound) ? .passed : .failed,
        name: "rule \(rule) (docs/rules/\(rule).md)", measured: "\(count(devices)) device\(devices == 1 ? "" : "s")",
        bound: boundText(expectation.bound, share: false, firing: true),
        reason: kept(Double(devices), expectation.bound)
          ? nil : worst.map { "\($0.upgrade) in \($0.experiment), \(count($0.devices)) devices" } ?? "no upgrade meets it")
    }
  }

  /// A rate over replications: failed only when its 95% interval lies wholly
  /// on the wrong side of the bound, passed when wholly on the right side.
  private static func rate(_ expectation: PlanExpectation, name: String, decision: DecisionRates?, right: Bool) -> ExpectationOutcome {
    let bound = boundText(expectation.bound, share: true)
    guard let decision else {
      return ExpectationOutcome(
        expectation: expectation, status: .undecided, name: name, measured: "not measured", bound: bound,
        reason: "a rate needs the plan's replications: run it with --replications 2 or more")
    }
    guard decision.knowsTruth else {
      return ExpectationOutcome(
        expectation: expectation, status: .undecided, name: name, measured: "not measured", bound: bound,
        reason: "the scenario gives no true lift, so a right decision cannot be told from a wrong one")
    }
    let share = right ? decision.rightShip : decision.wrongShip
    let lower = share.lower ?? 0, upper = share.upper ?? 1
    let measured = "\(percent(share.rate)) of \(count(share.of)) replications (95% interval \(percent(lower)) to \(percent(upper)))"
    let status: ExpectationOutcome.Status
    switch expectation.bound {
    case .atLeast(let limit): status = lower >= limit ? .passed : upper < limit ? .failed : .undecided
    case .atMost(let limit): status = upper <= limit ? .passed : lower > limit ? .failed : .undecided
    }
    let reason: String? = switch status {
    case .passed: nil
    case .failed: "the interval lies wholly beyond the bound"
    case .undecided: "too few replications to tell: the interval holds the bound"
    }
    return ExpectationOutcome(expectation: expectation, status: status, name: name, measured: measured, bound: bound, reason: reason)
  }

  /// Of the devices with a variant before and after an upgrade, the share on another variant after it.
  static func reshuffledShare(_ transition: TransitionResult) -> Double {
    let base = reshuffledBase(transition)
    return base > 0 ? Double(transition.reassigned + transition.returnedOnAnotherVariant) / Double(base) : 0
  }

  private static func reshuffledBase(_ transition: TransitionResult) -> Int {
    transition.kept + transition.reassigned + transition.returned
  }

  /// The rule page behind an upgrade's reshuffle: deleted variants reselect
  /// (DeletedVariant), a removed experiment brought back decides afresh (ExperimentReAdded).
  private static func rulePage(reshuffling transition: TransitionResult, of experiment: String, versions: [AppVersion]) -> String? {
    let changes = changes(of: experiment, in: transition, versions: versions)
    if transition.reassigned > 0, changes.contains(where: { if case .variantsDeleted = $0 { true } else { false } }) {
      return "docs/rules/DeletedVariant.md"
    }
    if transition.returnedOnAnotherVariant > 0, changes.contains(.added) { return "docs/rules/ExperimentReAdded.md" }
    return nil
  }

  private static func changes(of experiment: String, in transition: TransitionResult, versions: [AppVersion]) -> [ExperimentChange] {
    guard let from = versions.first(where: { $0.version == transition.fromVersion }),
      let to = versions.first(where: { $0.version == transition.toVersion })
    else { return [] }
    return ExperimentChange.between(
      from.experiments.first { $0.name == experiment }, to.experiments.first { $0.name == experiment })
  }

  /// The devices that met `rule` at each upgrade of each experiment: those
  /// that made an upgrade carrying the change the rule decides.
  private static func devices(
    meeting rule: String, scenario: Scenario, document: ResultsDocument
  ) -> [(upgrade: String, experiment: String, devices: Int)] {
    document.experiments.flatMap { experiment in
      experiment.transitions.compactMap { transition -> (upgrade: String, experiment: String, devices: Int)? in
        var devices = 0
        for change in changes(of: experiment.name, in: transition, versions: scenario.versions) {
          switch (rule, change) {
          case ("DeletedVariant", .variantsDeleted): devices += transition.reassigned + transition.deactivated
          case ("ExperimentReAdded", .removed): devices += transition.deactivated
          case ("ExperimentReAdded", .added): devices += transition.returned
          case ("TokenRangeChange", .tokenRangeChanged): devices += transition.total
          case ("AssignmentChange", .assignmentsChanged): devices += transition.kept
          default: break
          }
        }
        return devices > 0 ? ("\(transition.fromVersion) → \(transition.toVersion)", experiment.name, devices) : nil
      }
    }
  }

  private static func kept(_ measured: Double, _ bound: PlanExpectation.Bound) -> Bool {
    switch bound {
    case .atMost(let limit): measured <= limit
    case .atLeast(let limit): measured >= limit
    }
  }

  private static func boundText(_ bound: PlanExpectation.Bound, share: Bool, firing: Bool = false) -> String {
    switch (bound, firing) {
    case (.atMost, true): return "never"
    case (.atLeast, true): return "at least once"
    case (.atMost(let limit), false): return "at most " + (share ? percent(limit) : "\(count(Int(limit))) devices")
    case (.atLeast(let limit), false): return "at least " + (share ? percent(limit) : "\(count(Int(limit))) devices")
    }
  }

  /// A count in groups of three digits, as the report writes its counts.
  private static func count(_ value: Int) -> String {
    CountText.grouped(value)
  }

  /// A share as a percentage to a tenth, the same on every machine.
  static func percent(_ share: Double) -> String {
    let tenths = Int((share * 1000).rounded())
    return "\(tenths / 10).\(tenths % 10)%"
  }

  /// A p-value to three decimals, the same on every machine; "< 0.001" below that.
  private static func significant(_ value: Double) -> String {
    guard value >= 0.0005 else { return "< 0.001" }
    let thousandths = min(Int((value * 1000).rounded()), 1000)
    let digits = String(thousandths % 1000)
    return (thousandths == 1000 ? "1." : "0.") + String(repeating: "0", count: 3 - digits.count) + digits
  }
}
