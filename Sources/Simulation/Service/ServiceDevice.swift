import Bucketing
import Foundation
import JSONDocument
import ScenarioFormat

/// One device's side of a hash-bucketed service: its id (new after a
/// reinstall), the configuration it holds (downloaded at launch, or bundled
/// in the running version), what it stores (Optimizely's user profile,
/// GrowthBook's sticky buckets), and at every launch, which is a restart, the
/// variation of each experiment as the Bucketing library decides it.
struct ServiceDevice {
  private let tables: ServiceTables
  private var device = 0
  private var id = ""
  private var reinstallDay = -1
  private var cachedRevision = -1
  private var profile: [String: String]?
  private var sticky: GrowthBookStickyBuckets?
  /// Statsig's `keepDeviceValue`: by service experiment, the variant the device keeps while the experiment is listed.
  private var kept: [Int?]
  /// What the last decisions were made from: a launch with the same inputs keeps them.
  private var lastInputs: DecisionInputs?

  /// The inputs of a launch's decisions.
  struct DecisionInputs: Equatable {
    let revision: Int
    let id: String
    let segment: Int
    let version: Int
  }
  /// The configuration the last launch decided with, -1 before any launch.
  private var lastRevision = -1
  /// By service experiment: the plan's variant the device is in, -1 when none.
  private(set) var held: [Int]
  /// By service experiment: the revision whose split gave the current variant.
  private(set) var selectionRevision: [Int]
  private var tally: ServiceTally

  init(plan: SimulationPlan, tables: ServiceTables) {
    self.tables = tables
    held = Array(repeating: -1, count: tables.count)
    selectionRevision = held
    kept = Array(repeating: nil, count: tables.count)
    tally = ServiceTally(
      experiments: tables.count, revisions: tables.revisionDays.count, days: plan.scenario.days, flags: tables.flagNames.count)
  }

  /// A new device: its id, and the day it will reinstall, if ever.
  mutating func reset(device: Int, draws: RandomStream) {
    var draws = draws
    self.device = device
    id = "device-\(device)"
    let reinstalls = draws.nextUnit() < tables.reinstallShare
    let day = Int(draws.nextUnit() * Double(tables.revisionOfDay.count))
    reinstallDay = reinstalls ? max(day, 1) : -1
    cachedRevision = -1
    profile = tables.sticky ? [:] : nil
    sticky = tables.sticky ? GrowthBookStickyBuckets() : nil
    lastRevision = -1
    lastInputs = nil
    for s in held.indices {
      held[s] = -1
      selectionRevision[s] = -1
      kept[s] = nil
    }
  }

  /// A launch: a reinstall if its day has come, the configuration download,
  /// then every experiment decided with the configuration the device holds.
  mutating func launch(
    day: Int, segment: Int, version: Int, draws: inout RandomStream, activationDraws: inout RandomStream
  ) {
    if reinstallDay >= 0, day >= reinstallDay {
      reinstallDay = -1
      id = "device-\(device)-reinstalled"
      cachedRevision = -1
      profile = tables.sticky ? [:] : nil
      sticky = tables.sticky ? GrowthBookStickyBuckets() : nil
      for s in kept.indices { kept[s] = nil }
      tally.reinstalled += 1
    }
    let segmentName = tables.segmentNames[segment]
    // The configuration held before this launch's download: what an app
    // that reads its experiments first activates for the session.
    let heldRevision = cachedRevision >= 0 ? cachedRevision : tables.bundledRevision[version]
    let failed = draws.nextUnit() < tables.fetch.failureRate(in: segmentName)
    let latency = tables.fetch.medianLatency(in: segmentName) * Foundation.exp(tables.fetch.latencySigma * draws.nextNormal())
    if failed || latency > tables.fetch.timeoutSeconds {
      tally.failedFetches[day] += 1
    } else if tables.revisionOfDay[day] >= 0 {
      cachedRevision = tables.revisionOfDay[day]
    }
    var revision = cachedRevision >= 0 ? cachedRevision : tables.bundledRevision[version]
    if !tables.flagNames.isEmpty { readFlags(day: day, revision: revision, segment: segment, version: version) }
    // Flags are read above with the latest datafile: only experiments are activated for the session.
    if tables.count > 0, activationDraws.nextBernoulli(tables.accessBeforeDownload), heldRevision != revision {
      tally.staleActivations[day] += 1
      revision = heldRevision
    }
    let crossed = lastRevision >= 0 && revision > lastRevision
    let before = crossed ? held : []
    // A bucket is a pure function of the id, the attributes and the
    // configuration (and of what the device stored, which the same inputs
    // leave as it is): a launch that changes none of them decides nothing anew.
    let inputs = DecisionInputs(revision: revision, id: id, segment: segment, version: version)
    if revision >= 0, inputs != lastInputs {
      lastInputs = inputs
      let context = self.context(segment: segment, version: version)
      for s in 0..<tables.count {
        let variant = decide(s, revision: revision, context: context)
        if variant != held[s] { selectionRevision[s] = revision }
        held[s] = variant
      }
    }
    if crossed {
      for s in 0..<tables.count where (lastRevision + 1...revision).contains(where: { tables.touches[$0][s] }) {
        tally.changes[s][revision].count(before: before[s], after: held[s])
      }
    }
    lastRevision = max(lastRevision, revision)
  }

  /// Optimizely's flags at a launch, with the latest datafile the device
  /// holds, whenever the app reads them in the session (seed 001: "The
  /// latest value will always be returned for a feature flag"): false
  /// without a datafile, or with one that lacks the flag.
  private mutating func readFlags(day: Int, revision: Int, segment: Int, version: Int) {
    var attributes = tables.attributes[segment][version]
    attributes["id"] = .string(id)
    var noProfile: [String: String]?
    for (index, name) in tables.flagNames.enumerated() {
      guard revision >= 0, let decision = tables.optimizely[revision].feature(name, userID: id, attributes: attributes, profile: &noProfile)
      else {
        tally.flagUnknown[index][day] += 1
        continue
      }
      if decision.isEnabled { tally.flagOn[index][day] += 1 }
    }
  }

  /// Who the SDK is asked about at a launch, in the platform's own terms:
  /// built once per launch that decides, for every experiment.
  enum LaunchContext {
    case optimizely([String: AttributeValue])
    case growthBook([String: AttributeValue])
    case launchDarkly(LaunchDarklyContext)
    case statsig(StatsigUser)
    case eppo([String: JSONValue])
    case unleash(UnleashContext)
  }

  private func context(segment: Int, version: Int) -> LaunchContext {
    switch tables.framework {
    case .optimizely, .growthbook:
      var attributes = tables.attributes[segment][version]
      attributes["id"] = .string(id)
      return tables.framework == .optimizely ? .optimizely(attributes) : .growthBook(attributes)
    case .launchdarkly:
      return .launchDarkly(tables.launchDarklyContexts[segment][version].with(key: id))
    case .statsig:
      return .statsig(tables.statsigUsers[segment][version].with(userID: id))
    case .eppo:
      return .eppo(tables.jsonAttributes[segment][version])
    case .unleash:
      var context = tables.unleashContexts[segment][version]
      context.userId = id
      return .unleash(context)
    }
  }

  /// The plan's variant of service experiment `s` for this launch, -1 for
  /// none; the decision is stored where the app stores it, if it does.
  private mutating func decide(_ s: Int, revision: Int, context: LaunchContext) -> Int {
    let name = tables.names[s]
    func variant(_ variation: String?) -> Int { variation.flatMap { tables.variantIDs[s][$0] } ?? -1 }
    switch context {
    case .optimizely(let attributes):
      let key = tables.optimizely[revision].decide(experiment: tables.names[s], userID: id, attributes: attributes, profile: &profile)
        .variation?.key
      return key.flatMap { tables.variantIDs[s][$0] } ?? -1
    case .growthBook(let attributes):
      let value = tables.growthBook[revision].evaluate(tables.names[s], attributes: attributes, sticky: &sticky).value
      return value.string.flatMap { tables.variantIDs[s][$0] } ?? -1
    case .launchDarkly(let context):
      let evaluator = tables.launchDarkly[revision]
      let index = evaluator.variationDetail(name, context: context).variationIndex
      let variations = evaluator.data.flags[name]?.variations ?? []
      return variant(index.flatMap { variations.indices.contains($0) ? variations[$0].string : nil })
    case .statsig(let user):
      if let kept = kept[s], tables.statsig[revision].specs.configs[name] != nil { return kept }
      let result = tables.statsig[revision].getExperiment(name, user: user)
      let decided = variant(result.passed ? result.groupName : nil)
      if tables.sticky, decided >= 0 { kept[s] = decided }
      return decided
    case .eppo(let attributes):
      return variant(tables.eppo[revision].assign(name, subject: id, attributes: attributes, now: ServiceTables.clock).variationKey)
    case .unleash(let context):
      let served = tables.unleash[revision].decide(name, context: context)?.variation
      return served == "enabled" || served == "disabled" ? -1 : variant(served)
    }
  }

  /// The chance that the device was first shown each variant of `s`: the
  /// split of the revision that gave it its variant.
  func selectionShares(_ s: Int) -> [Double] {
    tables.shares[selectionRevision[s]][s]
  }

  /// Adds the batch's counts to `tally`.
  func fold(into tally: inout RunTally) {
    tally.service.merge(self.tally)
  }
}
