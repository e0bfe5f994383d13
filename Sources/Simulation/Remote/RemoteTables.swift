import Enrollment
import Lab
import ScenarioFormat

/// The remote service's timeline as tables the device loop reads: for each
/// revision of the configuration, each remote experiment's definition, keys
/// and the values a device would hold for each variant and key, resolved once
/// by `RemoteRules.value` against the app's defaults.
struct RemoteTables {
  /// Remote experiments, numbered from 0; `globalID[r]` is the plan's number.
  let count: Int
  let globalID: [Int]
  /// Every key any revision declares for each remote experiment, in order of appearance.
  let keys: [[String]]
  let maximumKeys: Int
  /// The revision in force on each day, -1 before the first change.
  let revisionOfDay: [Int]
  /// By revision and remote experiment: its definition when on the service and recognised by Lab.
  let experiments: [[RemoteExperiment?]]
  /// By revision and remote experiment: whether it is on the service at all (recognised or not).
  let present: [[Bool]]
  /// By revision and remote experiment: the declared keys, as a mask over `keys`.
  let declared: [[UInt64]]
  /// By revision and remote experiment: the overridden keys, as a mask over `keys`.
  let overridden: [[UInt64]]
  /// By revision, remote experiment, global variant and key: the held value's
  /// number in `values` (-1 none) and why it fell back to the default.
  let valueIDs: [[[[Int]]]]
  let fallbacks: [[[[RemoteRules.Fallback?]]]]
  /// Whether the app reads values as KOMA does (and tracks every read).
  let readsAsKOMA: Bool
  /// Every value a remote key can take.
  let values: [AssignmentValue]
  /// Each segment's attributes, as the service sees them.
  let segmentAttributes: [[String: String]]
  /// The variant's global number from its name, per remote experiment.
  let variantIDs: [[String: Int]]
  /// By revision and remote experiment: whether the revision's changes are about it.
  let touches: [[Bool]]
  /// The shares of devices with KOMA's custom and with its debug values.
  let customShare: Double, debugShare: Double
  /// By remote experiment, then `LocalValueSet`'s number: the keys whose
  /// value comes from the app's custom values, and from its debug values,
  /// by `RemoteValueService.resolve`'s precedence, as masks over `keys`.
  let customKeys: [[UInt64]], debugKeys: [[UInt64]]
  /// By remote experiment: the keys the app never uses, as a mask over
  /// `keys`: under devtodev's handshake, those without an in-app default
  /// ("SDK will not use new variable values that are not set in
  /// DTDRemoteConfig.defaults", `DevToDevRemoteConfig.config`).
  let unusedKeys: [UInt64]

  init(plan: SimulationPlan) {
    let scenario = plan.scenario
    let remote = scenario.remote ?? RemotePlan(defaults: [:], fetch: .reliable, changes: [])
    let ids = Array(plan.remoteExperiments)
    count = ids.count
    globalID = ids
    let revisions = remote.revisions
    let keys = plan.remoteKeys
    self.keys = keys
    maximumKeys = keys.map(\.count).max() ?? 0
    var revisionOfDay = Array(repeating: -1, count: scenario.days)
    for (index, revision) in revisions.enumerated() where revision.day < scenario.days {
      for day in revision.day..<scenario.days { revisionOfDay[day] = index }
    }
    self.revisionOfDay = revisionOfDay
    var values: [AssignmentValue] = []
    func intern(_ value: AssignmentValue?) -> Int {
      guard let value else { return -1 }
      if let index = values.firstIndex(of: value) { return index }
      values.append(value)
      return values.count - 1
    }
    var experiments: [[RemoteExperiment?]] = [], present: [[Bool]] = [], declared: [[UInt64]] = []
    var overridden: [[UInt64]] = [], valueIDs: [[[[Int]]]] = [], fallbacks: [[[[RemoteRules.Fallback?]]]] = []
    readsAsKOMA = remote.values == .koma
    for revision in revisions {
      let configuration = revision.configuration
      var revisionExperiments: [RemoteExperiment?] = [], revisionPresent: [Bool] = []
      var revisionDeclared: [UInt64] = [], revisionOverridden: [UInt64] = []
      var revisionValues: [[[Int]]] = [], revisionFallbacks: [[[RemoteRules.Fallback?]]] = []
      for (r, id) in ids.enumerated() {
        let name = plan.experimentNames[id]
        let definition = configuration.experiment(named: name)
        let declaredKeys = try? configuration.declaredKeys(of: name)
        func mask(_ names: [String]) -> UInt64 {
          names.compactMap { keys[r].firstIndex(of: $0) }.reduce(0) { $0 | 1 << UInt64($1) }
        }
        revisionPresent.append(definition != nil)
        revisionExperiments.append(declaredKeys != nil ? definition : nil)
        revisionDeclared.append(mask(declaredKeys ?? []))
        revisionOverridden.append(mask(configuration.overriddenKeys(of: name)))
        var byVariant: [[Int]] = [], fallbackByVariant: [[RemoteRules.Fallback?]] = []
        for variant in plan.variantNames[id] {
          let delivered = definition?.variants.first { $0.name == variant }?.values ?? [:]
          let resolved = keys[r].map { key -> (value: AssignmentValue?, fallback: RemoteRules.Fallback?) in
            // KOMA strips a baseline flag from what is shown; every key has a default there.
            if remote.values == .koma, let fallback = remote.defaults[key] {
              let (value, reason) = RemoteValueService.resolve(delivered[key], default: fallback)
              return (value.value, reason)
            }
            return RemoteRules.value(delivered: delivered[key], default: remote.defaults[key])
          }
          byVariant.append(resolved.map { intern($0.value) })
          fallbackByVariant.append(resolved.map(\.fallback))
        }
        revisionValues.append(byVariant)
        revisionFallbacks.append(fallbackByVariant)
      }
      experiments.append(revisionExperiments)
      present.append(revisionPresent)
      declared.append(revisionDeclared)
      overridden.append(revisionOverridden)
      valueIDs.append(revisionValues)
      fallbacks.append(revisionFallbacks)
    }
    self.experiments = experiments
    self.present = present
    self.declared = declared
    self.overridden = overridden
    self.valueIDs = valueIDs
    self.fallbacks = fallbacks
    self.values = values
    segmentAttributes = scenario.population.segments.map(\.attributes)
    touches = revisions.map { revision in
      ids.map { id in remote.changes.contains { $0.day == revision.day && $0.experiment == plan.experimentNames[id] } }
    }
    variantIDs = ids.map { id in Dictionary(uniqueKeysWithValues: plan.variantNames[id].enumerated().map { ($1, $0) }) }
    customShare = remote.customValues?.share ?? 0
    debugShare = remote.debugValues?.share ?? 0
    var customKeys: [[UInt64]] = [], debugKeys: [[UInt64]] = []
    for r in 0..<ids.count {
      var custom: [UInt64] = [], debug: [UInt64] = []
      for set in LocalValueSet.allCases {
        var customMask: UInt64 = 0, debugMask: UInt64 = 0
        for (index, key) in keys[r].enumerated() {
          let source = RemoteValueService.resolve(
            custom: set.hasCustom ? remote.customValues?.values[key] : nil,
            debug: set.hasDebug ? remote.debugValues?.values[key] : nil, fetched: nil,
            default: remote.defaults[key] ?? .string("")
          ).source
          if source == .custom { customMask |= 1 << UInt64(index) }
          if source == .debug { debugMask |= 1 << UInt64(index) }
        }
        custom.append(customMask)
        debug.append(debugMask)
      }
      customKeys.append(custom)
      debugKeys.append(debug)
    }
    self.customKeys = customKeys
    self.debugKeys = debugKeys
    unusedKeys = ids.indices.map { r in
      guard scenario.enrollment[plan.experimentNames[ids[r]]]?.handshake != nil else { return 0 }
      let usable = DevToDevRemoteConfig(defaults: remote.defaults).usableKeys(keys[r])
      return keys[r].indices.filter { !usable.contains(keys[r][$0]) }.reduce(0) { $0 | 1 << UInt64($1) }
    }
  }

  /// Whether a device has KOMA's custom values, its debug values, both or neither.
  enum LocalValueSet: Int, CaseIterable {
    case none, debug, custom, both

    init(custom: Bool, debug: Bool) { self.init(rawValue: (custom ? 2 : 0) + (debug ? 1 : 0))! }
    var hasCustom: Bool { self == .custom || self == .both }
    var hasDebug: Bool { self == .debug || self == .both }
  }

  /// The number of `value` among the values remote keys take, if any.
  func valueID(_ value: AssignmentValue) -> Int? {
    values.firstIndex(of: value)
  }
}
