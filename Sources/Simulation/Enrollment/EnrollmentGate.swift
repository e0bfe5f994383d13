import Enrollment
import Foundation
import ScenarioFormat

/// One device's enrollment in the experiments a scenario gives an
/// `EnrollmentRule`: a precondition that becomes true over its launches,
/// devtodev's handshake (`DevToDevHandshake.launch`) at each launch until it
/// enrolls, and the moment the Apptimize wrapper's policy counts it
/// enrolled. An experiment the gate holds back is not shown at that launch:
/// the app behaves like its defaults.
struct EnrollmentGate: DevicePart, ~Copyable {
  /// By plan experiment: the rule's number, -1 for none.
  private let ruleOfExperiment: [Int]
  private let rules: [EnrollmentRule]
  /// By rule: the waits the SDK uses, given when the app sets them
  /// (`DevToDevInitialization`).
  private let handshakeSettings: [DevToDevHandshake.Settings]
  /// By rule: the plan experiment it is about.
  let experiments: [Int]
  // The device, by rule, in memory the part owns (`ScratchArray`).
  private(set) var conditionMet: ScratchArray<Bool>
  /// Whether the precondition stopped holding (`EnrollmentRule.lapseChance`).
  private var lapsed: ScratchArray<Bool>
  private var events: ScratchArray<Int>
  /// Whether the user using the app went through the handshake.
  private var handshakeDone: ScratchArray<Bool>
  /// On a device two users share (`HandshakeModel.sharedDevices`): whether
  /// it is shared, and the handshake of the user not using the app now.
  private var isShared: ScratchArray<Bool>
  private var otherHandshakeDone: ScratchArray<Bool>
  /// Whether the experiment was active on the device at some launch.
  private(set) var wasActive: ScratchArray<Bool>
  /// The variant the device is enrolled in, -1 before.
  private(set) var enrolledVariant: ScratchArray<Int>
  private var tally: EnrollmentTally

  init(plan: SimulationPlan) {
    let scenario = plan.scenario
    var rules: [EnrollmentRule] = []
    let ruleOfExperiment = plan.experimentNames.map { name in
      guard let rule = scenario.enrollment[name] else { return -1 }
      rules.append(rule)
      return rules.count - 1
    }
    self.ruleOfExperiment = ruleOfExperiment
    self.rules = rules
    handshakeSettings = rules.map { rule in
      guard let model = rule.handshake else { return DevToDevHandshake.Settings() }
      return DevToDevInitialization.settings(model.settings, setBeforeInitialization: model.waitsSetBeforeInitialization)
    }
    experiments = ruleOfExperiment.indices.filter { ruleOfExperiment[$0] >= 0 }
    conditionMet = ScratchArray(repeating: false, count: rules.count)
    lapsed = ScratchArray(repeating: false, count: rules.count)
    events = ScratchArray(repeating: 0, count: rules.count)
    handshakeDone = ScratchArray(repeating: false, count: rules.count)
    isShared = ScratchArray(repeating: false, count: rules.count)
    otherHandshakeDone = ScratchArray(repeating: false, count: rules.count)
    wasActive = ScratchArray(repeating: false, count: rules.count)
    enrolledVariant = ScratchArray(repeating: -1, count: rules.count)
    tally = EnrollmentTally(rules: rules.count, days: scenario.days, segments: scenario.population.segments.count)
  }

  var isEmpty: Bool { rules.isEmpty }

  /// The rule of a plan experiment, -1 for none.
  func rule(of experiment: Int) -> Int { ruleOfExperiment[experiment] }

  mutating func reset(device _: Int, random _: DeviceRandom) {
    guard !rules.isEmpty else { return }
    for index in rules.indices {
      conditionMet[index] = rules[index].precondition == nil
      lapsed[index] = false
      events[index] = 0
      handshakeDone[index] = rules[index].handshake == nil
      isShared[index] = false
      otherHandshakeDone[index] = false
      wasActive[index] = false
      enrolledVariant[index] = -1
    }
  }

  /// At a launch where the experiment is active on `variant`: whether the app
  /// may show it, enrolling the device when its policy says so. The draws
  /// (the precondition's lapse, the app's events, the handshake, the app's
  /// check) are made here, in that order; what they decide is `holds`,
  /// `recordEvents`, `met` and `allocate`, which follow the wrapper's
  /// `ExperimentsManager` (`EnrollmentGateTests` holds the two together
  /// launch by launch).
  mutating func admits(rule index: Int, variant: Int, day: Int, segment: String, draws: inout RandomStream) -> Bool {
    let rule = rules[index]
    if let shared = rule.handshake?.sharedDevices { switchUser(rule: index, shared, day: day, draws: &draws) }
    wasActive[index] = true
    if rule.precondition != nil, conditionMet[index] {
      guard holds(rule: index, lapses: draws.nextBernoulli(rule.lapseChance), day: day) else { return false }
    } else if !conditionMet[index] {
      switch rule.precondition {
      case .events(_, let perLaunch)?:
        guard recordEvents(draws.nextPoisson(mean: perLaunch), rule: index, day: day) else { return false }
      case .launchChance(let chance)?:
        guard draws.nextBernoulli(chance) else { return false }
        met(index, day: day)
      case nil:
        met(index, day: day)
      }
    }
    if !handshakeDone[index], let model = rule.handshake {
      func seconds(_ median: Double) -> Double { median * Foundation.exp(model.latencySigma * draws.nextNormal()) }
      let local = model.segments[segment]
      // The server's answers are drawn only when they can happen, so that a
      // scenario without them keeps its draws.
      var timing = DevToDevHandshake.Timing(
        configuration: seconds(local?.configurationSeconds ?? model.configurationSeconds),
        testFound: !draws.nextBernoulli(model.emptyConfigurationChance),
        groupDefinition: seconds(model.groupSeconds), offer: seconds(model.offerSeconds),
        interruption: draws.nextBernoulli(local?.backgroundChance ?? model.backgroundChance) ? 0 : nil,
        userChangesDuringOffer: draws.nextBernoulli(model.userChangeChance))
      if draws.nextBernoulli(model.refusalChance) { timing.offer = nil }
      let outcome = DevToDevHandshake.launch(
        handshakeSettings[index], timing: timing, appliesOffer: draws.nextBernoulli(model.applyChance)
      ).outcome
      tally.handshakes[index][day * DevToDevHandshake.Outcome.allCases.count + outcome.index] += 1
      guard outcome == .applied else { return false }
      handshakeDone[index] = true
    }
    // The app's code checks the variation with its chance; only the check policy draws for it.
    let checked = rule.policy == .check && draws.nextBernoulli(rule.checkProbability)
    allocate(rule: index, variant: variant, checked: checked)
    return true
  }

  /// On a device two users share: drawn at the first launch where the
  /// experiment is active, then at each later one the other user may be
  /// the one using the app, whose own handshake decides
  /// (`DevToDevHandshake.switchUser`: a user who started the test has it back).
  private mutating func switchUser(
    rule index: Int, _ shared: HandshakeModel.SharedDevices, day: Int, draws: inout RandomStream
  ) {
    guard wasActive[index] else {
      isShared[index] = draws.nextBernoulli(shared.share)
      return
    }
    guard isShared[index], draws.nextBernoulli(shared.switchChance) else { return }
    let restored = DevToDevHandshake.switchUser(toUserWhoStartedTheTest: otherHandshakeDone[index])
      .contains(.onChanged(.success))
    swap(&handshakeDone[index], &otherHandshakeDone[index])
    tally.userSwitches[index][day * 2 + (restored ? 0 : 1)] += 1
  }

  /// Whether a precondition met at an earlier launch still holds at this one
  /// (the user's state the app passes to the wrapper, `Precondition.userState`),
  /// once it `lapses` for good.
  mutating func holds(rule index: Int, lapses: Bool, day: Int) -> Bool {
    if !lapsed[index], lapses {
      lapsed[index] = true
      tally.conditionLapsed[index][day] += 1
    }
    return Precondition.userState.isMet(recordedEvents: events[index], userStateHolds: !lapsed[index])
  }

  /// Counts the app's events toward an events precondition; returns whether it is met.
  mutating func recordEvents(_ count: Int, rule index: Int, day: Int) -> Bool {
    events[index] += count
    guard case .events(let required, _)? = rules[index].precondition,
      Precondition.events(required).isMet(recordedEvents: events[index])
    else { return false }
    met(index, day: day)
    return true
  }

  private mutating func met(_ index: Int, day: Int) {
    conditionMet[index] = true
    tally.conditionMet[index][day] += 1
  }

  /// The experiment is active and the device may take part: the SDK
  /// allocates, and the app's code checks when `checked`; each enrolls the
  /// device when the rule's policy enrolls at that moment.
  mutating func allocate(rule index: Int, variant: Int, checked: Bool) {
    let policy = rules[index].policy
    if policy.enrolls(at: .allocation) || (checked && policy.enrolls(at: .check)) { enroll(index, variant: variant) }
  }

  /// The app showed the experiment: the run, which enrolls under every policy.
  mutating func shown(rule index: Int, variant: Int) {
    if rules[index].policy.enrolls(at: .run) { enroll(index, variant: variant) }
  }

  /// Counts the device in its segment: active, and enrolled.
  mutating func countSegment(_ segment: Int) {
    for index in rules.indices where wasActive[index] {
      tally.activeBySegment[index][segment] += 1
      if enrolledVariant[index] >= 0 { tally.enrolledBySegment[index][segment] += 1 }
    }
  }

  private mutating func enroll(_ index: Int, variant: Int) {
    if enrolledVariant[index] < 0 { enrolledVariant[index] = variant }
  }

  /// Adds the batch's counts to `tally`.
  func fold(into tally: inout RunTally, tables _: borrowing @_addressable SimulationTables) {
    tally.enrollment.mergeCounts(of: self.tally)
  }
}

extension DevToDevHandshake.Outcome {
  /// The outcome's position among `allCases`, for flat tallies.
  var index: Int { Self.allCases.firstIndex(of: self)! }
}
