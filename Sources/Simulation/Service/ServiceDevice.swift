import Foundation
import Platforms
import ScenarioFormat

/// One device's side of a hash-bucketed service: its id (new after a
/// reinstall), the configuration it holds (downloaded at launch, or bundled
/// in the running version), and at every launch, which is a restart, the
/// variation of each experiment as the platform's plug-in decides it, with
/// what the app stores for the SDK (its `PlatformSession`). Its holdings are
/// in memory it owns (`ScratchArray`); the variations and flags stay Swift
/// arrays, as the platform's session writes them.
struct ServiceDevice: DevicePart, ~Copyable {
  private let tables: ServiceTables
  private var device = 0
  private var id = ""
  private var reinstallDay = -1
  private var cachedRevision = -1
  /// The platform's side of the device; nil without a service.
  private let session: PlatformSession?
  /// By service experiment: the variation the last decisions gave, nil for none.
  private var variations: [String?]
  /// By flag: whether the last launch's configuration turned it on, nil where it lacks the flag.
  private var flagStates: [Bool?]
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
  private(set) var held: ScratchArray<Int>
  /// `held` as it was before a launch that crossed into a newer revision.
  private var heldBeforeCrossing: ScratchArray<Int>
  /// By service experiment: the revision whose split gave the current variant.
  private var selectionRevision: ScratchArray<Int>
  private var tally: ServiceTally

  init(plan: SimulationPlan, tables: ServiceTables) {
    self.tables = tables
    held = ScratchArray(repeating: -1, count: tables.count)
    heldBeforeCrossing = ScratchArray(repeating: -1, count: tables.count)
    selectionRevision = ScratchArray(repeating: -1, count: tables.count)
    session = tables.session()
    variations = Array(repeating: nil, count: tables.count)
    flagStates = Array(repeating: nil, count: tables.flagNames.count)
    tally = ServiceTally(
      experiments: tables.count, revisions: tables.revisionDays.count, days: plan.scenario.days, flags: tables.flagNames.count)
  }

  /// A new device: its id, and the day it will reinstall, if ever.
  mutating func reset(device: Int, random: DeviceRandom) {
    guard tables.isUsed else { return }
    var draws = random.stream(.reinstall)
    self.device = device
    id = "device-\(device)"
    let reinstalls = draws.nextUnit() < tables.reinstallShare
    let day = Int(draws.nextUnit() * Double(tables.revisionOfDay.count))
    reinstallDay = reinstalls ? max(day, 1) : -1
    cachedRevision = -1
    session?.clearStore()
    lastRevision = -1
    lastInputs = nil
    held.fill(-1)
    selectionRevision.fill(-1)
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
      session?.clearStore()
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
    if crossed { heldBeforeCrossing.copy(from: held) }
    // A bucket is a pure function of the id, the attributes and the
    // configuration (and of what the device stored, which the same inputs
    // leave as it is): a launch that changes none of them decides nothing anew.
    let inputs = DecisionInputs(revision: revision, id: id, segment: segment, version: version)
    if revision >= 0, inputs != lastInputs {
      lastInputs = inputs
      session?.decide(revision: revision, id: id, segment: segment, version: version, into: &variations)
      for s in 0..<tables.count {
        let variant = variations[s].flatMap { tables.variantIDs[s][$0] } ?? -1
        if variant != held[s] { selectionRevision[s] = revision }
        held[s] = variant
      }
    }
    if crossed {
      for s in 0..<tables.count where (lastRevision + 1...revision).contains(where: { tables.touches[$0][s] }) {
        tally.changes[s][revision].count(before: heldBeforeCrossing[s], after: held[s])
      }
    }
    lastRevision = max(lastRevision, revision)
  }

  /// The platform's flags at a launch, with the latest configuration the
  /// device holds, whenever the app reads them in the session (seed 001:
  /// "The latest value will always be returned for a feature flag"): off
  /// without a configuration, or with one that lacks the flag.
  private mutating func readFlags(day: Int, revision: Int, segment: Int, version: Int) {
    if revision >= 0 {
      session?.flagStates(tables.flagNames, revision: revision, id: id, segment: segment, version: version, into: &flagStates)
    }
    for index in tables.flagNames.indices {
      guard revision >= 0, let isOn = flagStates[index] else {
        tally.flagUnknown[index][day] += 1
        continue
      }
      if isOn { tally.flagOn[index][day] += 1 }
    }
  }

  /// The chance that the device was first shown each variant of `s`: the
  /// split of the revision that gave it its variant.
  func selectionShares(_ s: Int) -> [Double] {
    tables.shares[selectionRevision[s]][s]
  }

  /// Adds the batch's counts to `tally`.
  func fold(into tally: inout RunTally, tables _: borrowing @_addressable SimulationTables) {
    tally.service.mergeCounts(of: self.tally)
  }
}
