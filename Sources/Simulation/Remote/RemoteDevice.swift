import Foundation
import Lab
import ScenarioFormat

/// One device's side of the remote service, by Lab's rules: the service's
/// memory of the device's assignments (`RemoteExperiment.assignment`), the
/// remote source's stored variants and values (`RemoteRules`), fetches that
/// fail or time out (seed 004), and variants that drive devices away.
/// It reuses its buffers from device to device and counts into its batch's tally.
struct RemoteDevice: DevicePart, ~Copyable {
  private let tables: RemoteTables
  private let fetch: FetchModel
  private let segmentNames: [String]
  private let variantNames: [[String]]
  /// Churn rules: remote experiment, variant, and the (key, value) pairs that carry the bug.
  private let churnRules: [(remote: Int, variant: Int, conditions: [(key: Int, value: Int)], probability: Double)]

  // The device, in memory the part owns (`ScratchArray`), by remote experiment unless said.
  private var serverVariant: ScratchArray<Int>
  /// The variant the device holds, -1 when none.
  private(set) var held: ScratchArray<Int>
  private var heldKeys: ScratchArray<UInt64>
  /// The value number of each held key, by `remote * maximumKeys + key`.
  private var keyValues: ScratchArray<Int>
  /// `held`, `heldKeys` and `keyValues` as they were before a fetch that crossed into
  /// a newer revision (a key's value counts only while the key is held).
  private var heldBeforeCrossing: ScratchArray<Int>
  private var keysBeforeCrossing: ScratchArray<UInt64>
  private var valuesBeforeCrossing: ScratchArray<Int>
  private var selectionRevision: ScratchArray<Int>
  private var selectedByConclusion: ScratchArray<Bool>
  private var eligibleDay: ScratchArray<Int>
  private var enrolledDay: ScratchArray<Int>
  /// By churn rule.
  private var churnExposed: ScratchArray<Bool>
  private var churnStuck: ScratchArray<Bool>
  private var churnRescued: ScratchArray<Bool>
  private var churnLost: ScratchArray<Bool>
  /// The revision of the device's last successful fetch, -1 before any.
  private var lastRevision = -1
  /// Which of KOMA's custom and debug values the device has.
  private var localValues = RemoteTables.LocalValueSet.none

  private var tally: RemoteTally

  init(plan: SimulationPlan, tables: RemoteTables) {
    self.tables = tables
    let scenario = plan.scenario
    fetch = scenario.remote?.fetch ?? .reliable
    segmentNames = scenario.population.segments.map(\.name)
    variantNames = plan.variantNames
    churnRules = scenario.churn.compactMap { rule in
      guard let global = plan.experimentNames.firstIndex(of: rule.experiment), plan.isRemote(global),
        let variant = plan.variantNames[global].firstIndex(of: rule.variant)
      else { return nil }
      let remote = global - plan.localExperimentCount
      let conditions = rule.whileValues.keys.sorted().map { key in
        (key: tables.keys[remote].firstIndex(of: key) ?? -1, value: tables.valueID(rule.whileValues[key]!) ?? -2)
      }
      return (remote, variant, conditions, rule.dailyProbability)
    }
    let count = tables.count, keySlots = count * max(tables.maximumKeys, 1), rules = churnRules.count
    serverVariant = ScratchArray(repeating: -1, count: count)
    held = ScratchArray(repeating: -1, count: count)
    heldKeys = ScratchArray(repeating: 0, count: count)
    keyValues = ScratchArray(repeating: -1, count: keySlots)
    heldBeforeCrossing = ScratchArray(repeating: -1, count: count)
    valuesBeforeCrossing = ScratchArray(repeating: -1, count: keySlots)
    keysBeforeCrossing = ScratchArray(repeating: 0, count: count)
    selectionRevision = ScratchArray(repeating: -1, count: count)
    selectedByConclusion = ScratchArray(repeating: false, count: count)
    eligibleDay = ScratchArray(repeating: -1, count: count)
    enrolledDay = ScratchArray(repeating: -1, count: count)
    churnExposed = ScratchArray(repeating: false, count: rules)
    churnStuck = ScratchArray(repeating: false, count: rules)
    churnRescued = ScratchArray(repeating: false, count: rules)
    churnLost = ScratchArray(repeating: false, count: rules)
    tally = RemoteTally(
      remoteExperiments: count, churnRules: churnRules.count, days: scenario.days, revisions: tables.touches.count)
  }

  /// A new device: nothing fetched or held, and its local values (KOMA's custom or debug values) drawn
  /// when the plan gives some devices any.
  mutating func reset(device _: Int, random: DeviceRandom) {
    guard tables.count > 0 else { return }
    lastRevision = -1
    localValues = .none
    for r in 0..<tables.count {
      serverVariant[r] = -1
      held[r] = -1
      heldKeys[r] = 0
      eligibleDay[r] = -1
      enrolledDay[r] = -1
    }
    for index in churnExposed.indices {
      churnExposed[index] = false
      churnStuck[index] = false
      churnRescued[index] = false
      churnLost[index] = false
    }
    if tables.customShare > 0 || tables.debugShare > 0 {
      var draws = random.stream(.localValues)
      drawLocalValues(&draws)
    }
  }

  /// The fetch at a launch: on success the service assigns and the source
  /// takes the delivery by `RemoteRules.update`; on failure nothing changes.
  mutating func launch(
    day: Int, segment: Int, token: ActiveExperimentsToken, isStabilized: Bool, draws: inout RandomStream,
    assignments: inout RandomStream
  ) {
    let revision = tables.revisionOfDay[day]
    let segmentName = segmentNames[segment]
    for r in 0..<tables.count where revision >= 0 && tables.present[revision][r] && eligibleDay[r] < 0 {
      if tables.experiments[revision][r].map({ $0.audience.admits(attributes: tables.segmentAttributes[segment], token: token) }) ?? false {
        eligibleDay[r] = day
      }
    }
    let failed = draws.nextUnit() < fetch.failureRate(in: segmentName)
    let latency = fetch.medianLatency(in: segmentName) * Foundation.exp(fetch.latencySigma * draws.nextNormal())
    guard !failed, latency <= fetch.timeoutSeconds, revision >= 0 else {
      if failed || latency > fetch.timeoutSeconds { tally.failedFetches[day] += 1 }
      return
    }
    var overrode = false
    let crossed = lastRevision >= 0 && revision > lastRevision
    if crossed {
      heldBeforeCrossing.copy(from: held)
      valuesBeforeCrossing.copy(from: keyValues)
      keysBeforeCrossing.copy(from: heldKeys)
    }
    for r in 0..<tables.count {
      var delivered = -1
      if tables.present[revision][r] {
        let experiment = tables.experiments[revision][r]
        let bits = assignments.next()
        if let experiment {
          let previous = serverVariant[r] >= 0 ? variantNames[tables.globalID[r]][serverVariant[r]] : nil
          if let name = experiment.assignment(previous: previous, attributes: tables.segmentAttributes[segment], token: token, bits: bits),
            let variant = tables.variantIDs[r][name]
          {
            if variant != serverVariant[r] {
              selectionRevision[r] = revision
              selectedByConclusion[r] = experiment.winner != nil
            }
            serverVariant[r] = variant
            delivered = variant
          }
        }
      } else {
        serverVariant[r] = -1
      }
      switch RemoteRules.update(isStabilized: isStabilized, isStored: held[r] >= 0, isDelivered: delivered >= 0) {
      case .take:
        held[r] = delivered
        heldKeys[r] = tables.declared[revision][r]
        take(r, revision: revision, day: day, keys: heldKeys[r])
      case .drop:
        held[r] = -1
      case .keep:
        let live = tables.overridden[revision][r] & heldKeys[r]
        if live != 0, tables.experiments[revision][r] != nil, take(r, revision: revision, day: day, keys: live) {
          overrode = true
        }
      case .ignore:
        break
      }
      if held[r] >= 0, enrolledDay[r] < 0 { enrolledDay[r] = day }
    }
    if overrode { tally.overridden[day] += 1 }
    if crossed {
      for r in 0..<tables.count where (lastRevision + 1...revision).contains(where: { tables.touches[$0][r] }) {
        tally.changes[r][revision].count(before: heldBeforeCrossing[r], after: held[r])
        if heldBeforeCrossing[r] >= 0 && heldBeforeCrossing[r] == held[r] {
          countValues(r, revision: revision, isStabilized: isStabilized)
        }
      }
    }
    lastRevision = revision
    if tables.readsAsKOMA { trackReads(revision: revision, day: day) }
  }

  /// Counts what a crossing into `revision` did to the values of remote
  /// experiment `r` on a device that kept its variant: new values taken (by
  /// a stabilized device only through an override), or, on a stabilized
  /// device, old values kept where the revision gives the variant others.
  private mutating func countValues(_ r: Int, revision: Int, isStabilized: Bool) {
    let stride = max(tables.maximumKeys, 1)
    var changed = false, stale = false
    for key in 0..<tables.keys[r].count {
      let bit: UInt64 = 1 << UInt64(key), index = r * stride + key
      let before = keysBeforeCrossing[r] & bit != 0 ? valuesBeforeCrossing[index] : -1
      let after = heldKeys[r] & bit != 0 ? keyValues[index] : -1
      if before != after { changed = true }
      if heldKeys[r] & tables.declared[revision][r] & bit != 0, after != tables.valueIDs[revision][r][held[r]][key] { stale = true }
    }
    if changed {
      tally.changes[r][revision].tookValues += 1
      if isStabilized { tally.changes[r][revision].overridden += 1 }
    } else if stale && isStabilized {
      tally.changes[r][revision].keptOldValues += 1
    }
  }

  /// Draws, once per device, whether the app has KOMA's custom and debug values on it.
  private mutating func drawLocalValues(_ draws: inout RandomStream) {
    localValues = RemoteTables.LocalValueSet(
      custom: draws.nextBernoulli(tables.customShare), debug: draws.nextBernoulli(tables.debugShare))
  }

  /// KOMA's `getValues(for:)` after a successful fetch: each key the device
  /// holds is tracked once, as an experimental group or by why it fell back;
  /// a valid value the app's custom or debug value stands in for is no group.
  private mutating func trackReads(revision: Int, day: Int) {
    let set = localValues.rawValue
    for r in 0..<tables.count where held[r] >= 0 {
      for key in 0..<tables.keys[r].count where heldKeys[r] & (1 << UInt64(key)) != 0 {
        let bit: UInt64 = 1 << UInt64(key)
        switch tables.fallbacks[revision][r][held[r]][key] {
        case nil where tables.customKeys[r][set] & bit != 0: tally.tracking[day * 5 + 3] += 1
        case nil where tables.debugKeys[r][set] & bit != 0: tally.tracking[day * 5 + 4] += 1
        case nil: tally.tracking[day * 5] += 1
        case .keyNotFound?: tally.tracking[day * 5 + 1] += 1
        case .incorrectValue?: tally.tracking[day * 5 + 2] += 1
        }
      }
    }
  }

  /// Whether the device sees any of remote experiment `r`'s values: a key
  /// it is served that the app uses, and whose value its custom or debug
  /// values do not replace.
  func showsRemoteValues(_ r: Int) -> Bool {
    let set = localValues.rawValue
    return servedKeys(r) & ~(tables.customKeys[r][set] | tables.debugKeys[r][set] | tables.unusedKeys[r]) != 0
  }

  /// Stores the values of `keys` for the held variant from `revision`,
  /// counting fallbacks; returns whether a stored value changed.
  @discardableResult
  private mutating func take(_ r: Int, revision: Int, day: Int, keys: UInt64) -> Bool {
    let stride = max(tables.maximumKeys, 1)
    var changed = false
    for key in 0..<tables.keys[r].count where keys & (1 << UInt64(key)) != 0 {
      let value = tables.valueIDs[revision][r][held[r]][key]
      if keyValues[r * stride + key] != value { changed = true }
      keyValues[r * stride + key] = value
      if tables.fallbacks[revision][r][held[r]][key] != nil { tally.defaultFallbacks[day] += 1 }
    }
    return changed
  }

  /// The keys of remote experiment `r` the device holds with a value: those
  /// the manager merges, as a mask over `tables.keys[r]`.
  func servedKeys(_ r: Int) -> UInt64 {
    guard held[r] >= 0 else { return 0 }
    let stride = max(tables.maximumKeys, 1)
    var mask: UInt64 = 0
    for key in 0..<tables.keys[r].count where heldKeys[r] & (1 << UInt64(key)) != 0 && keyValues[r * stride + key] >= 0 {
      mask |= 1 << UInt64(key)
    }
    return mask
  }

  /// The values the device holds for remote experiment `r` and the app
  /// reads, by key: a key the app never uses (`RemoteTables.unusedKeys`)
  /// reaches neither the assignments manager nor its events.
  func values(_ r: Int) -> [String: AssignmentValue] {
    var values: [String: AssignmentValue] = [:]
    let read = heldKeys[r] & ~tables.unusedKeys[r]
    for (key, name) in tables.keys[r].enumerated() where read & (1 << UInt64(key)) != 0 {
      let id = keyValues[r * max(tables.maximumKeys, 1) + key]
      if id >= 0 { values[name] = tables.values[id] }
    }
    return values
  }

  /// The chance that the device was first shown each variant of `r`: the
  /// percentages of the revision whose service assignment gave it its variant,
  /// or all on the winner when a conclusion did.
  func selectionShares(_ r: Int) -> [Double] {
    let variants = variantNames[tables.globalID[r]]
    guard !selectedByConclusion[r], let experiment = tables.experiments[selectionRevision[r]][r] else {
      return variants.indices.map { $0 == held[r] ? 1 : 0 }
    }
    let total = experiment.variants.reduce(0) { $0 + $1.percentage }
    return variants.map { name in (experiment.variants.first { $0.name == name }?.percentage ?? 0) / total }
  }

  /// After the launch's displays: whether a buggy variant made the device stop
  /// launching for good.
  mutating func churns(isStabilized: Bool, draws: inout RandomStream) -> Bool {
    let stride = max(tables.maximumKeys, 1)
    for (index, rule) in churnRules.enumerated() where held[rule.remote] == rule.variant {
      let buggy = rule.conditions.allSatisfy { $0.key >= 0 && keyValues[rule.remote * stride + $0.key] == $0.value }
      guard buggy else {
        if churnExposed[index] { churnRescued[index] = true }
        continue
      }
      churnExposed[index] = true
      if isStabilized { churnStuck[index] = true }
      if draws.nextUnit() < rule.probability {
        churnLost[index] = true
        return true
      }
    }
    return false
  }

  /// Adds the device's enrollment and churn to the tally.
  mutating func finish() {
    for r in 0..<tables.count where eligibleDay[r] >= 0 {
      tally.enrollment[r].eligible += 1
      guard enrolledDay[r] >= 0 else { continue }
      tally.enrollment[r].enrolled += 1
      tally.enrollment[r].daysToEnroll[max(enrolledDay[r] - eligibleDay[r], 0)] += 1
    }
    for index in churnRules.indices where churnExposed[index] {
      tally.churn[index].exposed += 1
      if churnLost[index] { tally.churn[index].lost += 1 }
      if churnStuck[index] { tally.churn[index].stuck += 1 }
      if churnRescued[index] && !churnLost[index] { tally.churn[index].rescued += 1 }
    }
  }

  /// Adds the batch's counts to `tally`.
  func fold(into tally: inout RunTally, tables _: borrowing @_addressable SimulationTables) {
    tally.remote.mergeCounts(of: self.tally)
  }
}
