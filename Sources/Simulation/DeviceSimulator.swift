import Lab

/// Runs devices through the scenario's days, launch by launch, by Lab's own
/// rules: the token from `ActiveExperimentsToken`, each local experiment
/// decided by `LocalDecision` with `WeightedSelection`, remote experiments by
/// `RemoteDevice`, and what the assignments manager serves when experiments
/// share a key by `KeySharing.serve`.
///
/// It keeps the plan as flat tables of plain numbers, built for it alone, and
/// counts into flat arrays of its own, so that the loop over millions of
/// launches touches no shared reference counts; `finish(into:)` hands the
/// counts over as a `RunTally`. One simulator serves one batch.
///
/// It cannot be copied: its scratch arrays are views of memory it owns, which
/// a copy would share, and the methods of a noncopyable value borrow it where
/// a copyable one's could copy the whole simulator at every call.
struct DeviceSimulator: ~Copyable {
  let plan: SimulationPlan
  let seed: UInt64
  let replication: Int
  private let tables: SimulationTables

  /// Owns the scratch arrays below (`ScratchArray`: the loop's working
  /// memory, written without uniqueness or, in release builds, bounds checks).
  private let arena = ScratchArena()

  // The device being simulated; reset for each device.
  /// Per experiment: 0 no record, 1 inactive, 2 + g active on global variant g.
  private let recall: ScratchArray<UInt8>
  private let recallBefore: ScratchArray<UInt8>
  /// Per experiment: 0 never active, else the code of the variant it held
  /// before its record last changed.
  private let lastActive: ScratchArray<UInt8>
  /// Display days per experiment and variant, by `tables.variantStart[experiment] + variant`.
  private let displayDays: ScratchArray<Int32>
  /// Per experiment, the variants displayed, a bit each: an experiment has
  /// at most 64 (`ScenarioLimits.variants`), so masks shift with `&<<`.
  private let displayedMask: ScratchArray<UInt64>
  private let firstVariant: ScratchArray<Int>
  private let firstDay: ScratchArray<Int>
  /// Per experiment, the slot whose weights selected the current variant, and
  /// the variants of that selection that every later launch still defined.
  private let selectionSlot: ScratchArray<Int>
  private let eligibleVariants: ScratchArray<UInt64>
  /// Per slot of the running version: the local variant it decided, −1 for inactive.
  private let decisions: ScratchArray<Int>
  /// The slots active at this launch, in order, by their index in the
  /// running version's slots and by experiment, and, at an upgrade that
  /// decides afresh, the experiments active at the launch before: displays
  /// and transitions visit the experiments a device is in rather than every
  /// experiment of the plan.
  private let activeIndexes: ScratchArray<Int>
  private var activeExperiments: ScratchArray<Int>
  /// The global variant of each active slot.
  private let activeVariants: ScratchArray<Int>
  private var activeCount = 0
  private var previousActiveExperiments: ScratchArray<Int>
  private var previousActiveCount = 0
  /// The experiments displayed to the device so far, in the order of their
  /// first display (`record`); `drawOutcomes` sorts them.
  private let shownExperiments: ScratchArray<Int>
  private var shownExperimentCount = 0
  /// Per position of the version's merge order (its slots, then the remote
  /// experiments): whether the manager served it at this launch.
  private let served: ScratchArray<Bool>
  private let displayed: ScratchArray<Bool>
  /// `KeySharing.serve`'s array, for versions whose experiments share keys.
  private var sharingServed: [Bool]
  /// Per remote experiment, the keys it serves at this launch (`RemoteDevice.servedKeys`).
  private let remoteServedKeys: ScratchArray<UInt64>
  /// The pairs `KeySharing.serve` reported discarded at this launch.
  private var clashedPairs: [Int] = []
  /// The merge order of the version `serve` last met, kept so that a launch
  /// reads it in place rather than copying it out of the tables.
  private var sharing: KeySharing
  private var sharingVersion = 0
  /// Per row of `plan.sharedKeys`, whether the device met a clash on it; per
  /// entry of `tables.clashes.servedStart`, whether that variant was served at one.
  private let clashSeen: ScratchArray<Bool>
  private let clashServedSeen: ScratchArray<Bool>
  /// The clashes of the current launch, for observers.
  private var launchClashes: [LaunchClash] = []
  /// What observers are shown of each launch, refilled in place.
  private var launchRecord = LaunchRecord()
  private let upgradeDays: ScratchArray<Double>
  /// Per version, the first day the device runs it or a newer one: the
  /// smallest upgrade day of the version and every later one. It never
  /// decreases from version to version, so the launch loop finds the version
  /// installed on a day by stepping forward from the last one.
  private let installableFrom: ScratchArray<Double>
  private let outcomes: ScratchArray<Double>
  /// Per metric with a covariate, the device's covariate.
  private let covariates: ScratchArray<Double>
  /// Per metric and experiment, the mixed lift of the displayed variants.
  private let mixedLifts: ScratchArray<Double>
  /// Per metric, the product of every displayed experiment's mixed lift.
  private let factors: ScratchArray<Double>

  /// The device's side of the remote service.
  private var remote: RemoteDevice
  private let remoteDisplayed: ScratchArray<Bool>
  /// The device's enrollment in experiments with an `EnrollmentRule`.
  private var enrollment: EnrollmentGate
  private let hasEnrollment: Bool
  /// The device's side of the hash-bucketed service.
  private var service: ServiceDevice
  private let serviceDisplayed: ScratchArray<Bool>

  // Counts over the batch's devices, handed over by `finish(into:)`.
  private var tally: RunTally
  /// By `tables.dailyStart[experiment] + day * variants + variant`.
  private let dailyNewExposures: ScratchArray<Int>
  /// By `((from * versions + to) * experiments + experiment) * 6 + kind`, kinds in the
  /// order of `TransitionCounts`: kept, reassigned, deactivated, activated,
  /// returned, returned on another variant.
  private let transitions: ScratchArray<Int>
  private var launches = 0
  /// By `from * versions + to`: `RunTally.upgrades`.
  private let upgrades: ScratchArray<Int>
  /// By `tables.variantStart[experiment] + variant`: see `VariantTally.expectedFirstExposed`.
  private let expectedFirstExposed: ScratchArray<ExactSum>
  /// By slot: the first exposures whose variant that slot's weights selected
  /// with every one of its variants still eligible, the usual case, whose
  /// shares `finish(into:)` adds once per slot.
  private let wholeSlotFirstExposures: ScratchArray<Int>
  /// By `tables.variantStart[experiment] + variant`: `VariantTally`'s counts.
  private let exposed: ScratchArray<Int>
  private let contaminated: ScratchArray<Int>
  private let firstExposed: ScratchArray<Int>
  /// By experiment: `ExperimentTally.mixedDevices`.
  private let mixedDevices: ScratchArray<Int>
  /// By `(tables.variantStart[experiment] + variant) * metrics + metric`:
  /// `VariantTally.firstExposure` and `uncontaminated`.
  private let firstExposure: ScratchArray<MetricTally>
  private let uncontaminated: ScratchArray<MetricTally>
  /// By the same index: `VariantTally.covariates`, under the scenario's attribution.
  private let covariateTallies: ScratchArray<CovariateTally>
  /// By `(tables.variantStart[experiment] + variant) * ratios + ratio`:
  /// `VariantTally.ratios`, under the scenario's attribution.
  private let ratioTallies: ScratchArray<CrossProducts>
  /// By `((tables.variantStart[experiment] + variant) * tables.histogramCount
  /// + slot) * AmountHistogram.bucketCount + bucket`: `VariantTally.histograms`,
  /// under the scenario's attribution.
  private let histogramCounts: ScratchArray<Int>
  /// By `((tables.variantStart[experiment] + variant) * tables.winsorizedCount
  /// + slot) * AmountHistogram.bucketCount + bucket`: the buckets' moments of
  /// `VariantTally.histograms` for winsorized metrics.
  private let histogramMoments: ScratchArray<Moments>
  /// By `(tables.dailyStart[experiment] + day * variants + variant) * metrics + metric`:
  /// `ExperimentTally.dailyCohorts`.
  private let dailyCohorts: ScratchArray<MetricTally>

  init(plan: SimulationPlan, seed: UInt64, replication: Int) {
    self.plan = plan
    self.seed = seed
    self.replication = replication
    tables = SimulationTables(plan, arena: arena)
    let experiments = tables.experimentCount, variants = tables.variantStart[experiments]
    let metricTallies = plan.metricStepExponents.map(MetricTally.init(stepExponent:))
    recall = arena.array(repeating: 0, count: experiments)
    recallBefore = arena.array(repeating: 0, count: experiments)
    lastActive = arena.array(repeating: 0, count: experiments)
    displayDays = arena.array(repeating: 0, count: variants)
    displayedMask = arena.array(repeating: 0, count: experiments)
    firstVariant = arena.array(repeating: -1, count: experiments)
    firstDay = arena.array(repeating: 0, count: experiments)
    selectionSlot = arena.array(repeating: 0, count: experiments)
    eligibleVariants = arena.array(repeating: 0, count: experiments)
    decisions = arena.array(repeating: -1, count: tables.maximumSlots)
    activeIndexes = arena.array(repeating: 0, count: tables.maximumSlots)
    activeExperiments = arena.array(repeating: 0, count: tables.maximumSlots)
    activeVariants = arena.array(repeating: 0, count: tables.maximumSlots)
    previousActiveExperiments = arena.array(repeating: 0, count: tables.maximumSlots)
    shownExperiments = arena.array(repeating: 0, count: experiments)
    served = arena.array(repeating: false, count: tables.maximumSlots + tables.remote.count)
    sharingServed = Array(repeating: false, count: tables.maximumSlots + tables.remote.count)
    displayed = arena.array(repeating: false, count: tables.maximumSlots)
    remoteServedKeys = arena.array(repeating: 0, count: tables.remote.count)
    sharing = tables.clashes.sharing[0]
    clashSeen = arena.array(repeating: false, count: plan.sharedKeys.count)
    clashServedSeen = arena.array(repeating: false, count: tables.clashes.servedStart.last!)
    upgradeDays = arena.array(repeating: 0, count: tables.versionCount)
    installableFrom = arena.array(repeating: 0, count: tables.versionCount)
    outcomes = arena.array(repeating: 0, count: tables.metricCount)
    covariates = arena.array(repeating: 0, count: tables.metricCount)
    mixedLifts = arena.array(repeating: 0, count: tables.metricCount * experiments)
    factors = arena.array(repeating: 1, count: tables.metricCount)
    remote = RemoteDevice(plan: plan, tables: tables.remote)
    remoteDisplayed = arena.array(repeating: false, count: tables.remote.count)
    enrollment = EnrollmentGate(plan: plan)
    hasEnrollment = !enrollment.isEmpty
    service = ServiceDevice(plan: plan, tables: tables.service)
    serviceDisplayed = arena.array(repeating: false, count: tables.service.count)
    tally = RunTally(plan: plan)
    dailyNewExposures = arena.array(repeating: 0, count: tables.dailyStart[experiments])
    transitions = arena.array(repeating: 0, count: experiments * tables.versionCount * tables.versionCount * 6)
    upgrades = arena.array(repeating: 0, count: tables.versionCount * tables.versionCount)
    expectedFirstExposed = arena.array(repeating: ExactSum(), count: variants)
    wholeSlotFirstExposures = arena.array(repeating: 0, count: tables.slotExperiment.count)
    exposed = arena.array(repeating: 0, count: variants)
    contaminated = arena.array(repeating: 0, count: variants)
    firstExposed = arena.array(repeating: 0, count: variants)
    mixedDevices = arena.array(repeating: 0, count: experiments)
    firstExposure = arena.array(Array((0..<variants).map { _ in metricTallies }.joined()))
    uncontaminated = arena.array(Array((0..<variants).map { _ in metricTallies }.joined()))
    covariateTallies = arena.array(
      repeating: CovariateTally(), count: tables.hasCovariates ? variants * tables.metricCount : 0)
    ratioTallies = arena.array(repeating: CrossProducts(), count: variants * tables.ratioNumerators.count)
    histogramCounts = arena.array(repeating: 0, count: variants * tables.histogramCount * AmountHistogram.bucketCount)
    let cellMoments = plan.scenario.metrics.indices.filter { plan.scenario.metrics[$0].winsorize != nil }.flatMap { metric in
      Array(repeating: Moments(stepExponent: plan.metricStepExponents[metric]), count: AmountHistogram.bucketCount)
    }
    histogramMoments = arena.array(Array((0..<variants).map { _ in cellMoments }.joined()))
    dailyCohorts = arena.array(Array((0..<tables.dailyStart[experiments]).map { _ in metricTallies }.joined()))
  }

  /// Simulates device `device`.
  mutating func simulate<Observer: DeviceObserver>(device: Int, observer: inout Observer) {
    let random = DeviceRandom(seed: seed, replication: replication, device: device)
    var stream = random.stream(.token)
    let token = ActiveExperimentsToken(bits: stream.next())
    stream = random.stream(.segment)
    let segment = tables.segment(forUnit: stream.nextUnit())
    drawUpgradeDays(random.stream(.adoption))
    reset()
    let hasRemote = tables.remote.count > 0
    if hasRemote { remote.reset() }
    if tables.service.count > 0 { service.reset(device: device, draws: random.stream(.reinstall)) }
    if hasEnrollment { enrollment.reset() }
    if Observer.isObserving {
      observer.started(
        device: device, token: token, segment: segment, upgradeDays: upgradeDays.array.map { $0.isFinite ? $0 : nil })
    }

    var launchDraws = random.stream(.launches)
    var variantDraws = random.stream(.variants)
    var displayDraws = random.stream(.display)
    var fetchDraws = random.stream(.fetch, ifUsed: hasRemote)
    var assignmentDraws = random.stream(.remoteAssignment, ifUsed: hasRemote)
    var churnDraws = random.stream(.churn, ifUsed: hasRemote)
    var serviceDraws = random.stream(.serviceFetch, ifUsed: tables.service.count > 0)
    var enrollmentDraws = random.stream(.enrollment, ifUsed: hasEnrollment)
    let launchProbability = tables.launchProbabilities[segment]
    var installed = 0, running = -1, launchOfVersion = 0, stabilized = false, churned = false
    for day in 0..<tables.days where !churned {
      // The newest version whose upgrade day has come: a device installs the
      // newest it can, skipping any it never took.
      while installed + 1 < tables.versionCount && installableFrom[installed + 1] <= Double(day) { installed += 1 }
      guard launchDraws.nextBernoulli(launchProbability) else { continue }
      launches += 1
      let upgradedFrom = running >= 0 && running != installed ? running : -1
      if running != installed {
        running = installed
        launchOfVersion = 0
      }
      launchOfVersion += 1

      // The local source decides at the first launch of each version. A
      // relaunch of the same version would rewrite the same records, as
      // would an upgrade that changes none of the local experiments
      // (`SimulationTables.carriesDecisions`).
      if upgradedFrom >= 0 {
        upgrades[upgradedFrom * tables.versionCount + installed] += 1
        if tables.carriesDecisions[upgradedFrom * tables.versionCount + installed] {
          carryDecisions(from: upgradedFrom, to: installed)
        } else {
          recallBefore.copy(from: recall)
          let previous = previousActiveExperiments
          previousActiveExperiments = activeExperiments
          previousActiveCount = activeCount
          activeExperiments = previous
          decide(version: installed, token: token, draws: &variantDraws)
          countTransitions(from: upgradedFrom, to: installed)
        }
      } else if launchOfVersion == 1 {
        decide(version: installed, token: token, draws: &variantDraws)
      }
      if tables.remote.count > 0 {
        remote.launch(
          day: day, segment: segment, token: token, isStabilized: stabilized, draws: &fetchDraws,
          assignments: &assignmentDraws)
      }
      if tables.service.count > 0 {
        service.launch(day: day, segment: segment, version: installed, draws: &serviceDraws)
      }
      // In a version whose experiments share no key every active slot is
      // served: without remote experiments or an observer, nothing to merge.
      if Observer.isObserving || tables.remote.count > 0 || !tables.clashes.isDisjoint[installed] {
        serve(version: installed, day: day, observing: Observer.isObserving)
      }
      display(
        version: installed, day: day, segment: segment, draws: &displayDraws, enrollmentDraws: &enrollmentDraws,
        observing: Observer.isObserving)
      let stabilizes = tables.stabilizeOnLaunch[installed] == launchOfVersion
      if stabilizes {
        if !stabilized { tally.stabilizedByDay[day] += 1 }
        stabilized = true
      }
      if tables.remote.count > 0, remote.churns(isStabilized: stabilized, draws: &churnDraws) { churned = true }
      if Observer.isObserving {
        fillLaunchRecord(day: day, version: installed, launchOfVersion: launchOfVersion, stabilized: stabilizes)
        observer.launched(launchRecord)
      }
    }
    if hasRemote { remote.finish() }

    tally.devices += 1
    if stabilized { tally.stabilizedDevices += 1 }
    if !plan.sharedKeys.isEmpty { countClashDevices() }
    drawOutcomes(random, segment: segment)
    if Observer.isObserving { observer.finished(outcomes: outcomes.array) }
  }

  /// Refills `launchRecord` with the launch just simulated.
  private mutating func fillLaunchRecord(day: Int, version: Int, launchOfVersion: Int, stabilized: Bool) {
    let slots = tables.slotStart[version + 1] - tables.slotStart[version]
    launchRecord.day = day
    launchRecord.version = version
    launchRecord.launchOfVersion = launchOfVersion
    launchRecord.stabilized = stabilized
    if launchRecord.decisions.count != slots {
      launchRecord.decisions = Array(repeating: .inactive, count: slots)
      launchRecord.served = Array(repeating: false, count: slots)
      launchRecord.displayed = Array(repeating: false, count: slots)
    }
    for index in 0..<slots {
      launchRecord.decisions[index] = decisions[index] >= 0 ? .active(variant: decisions[index]) : .inactive
      launchRecord.served[index] = served[index]
      launchRecord.displayed[index] = displayed[index]
    }
    launchRecord.clashes = launchClashes
    if !launchRecord.remote.isEmpty { launchRecord.remote.removeAll(keepingCapacity: true) }
    for r in 0..<tables.remote.count where remote.held[r] >= 0 {
      launchRecord.remote.append(RemoteHolding(
        experiment: tables.remote.globalID[r], variant: remote.held[r], values: remote.values(r),
        served: served[slots + r], displayed: remoteDisplayed[r]))
    }
    if !launchRecord.services.isEmpty { launchRecord.services.removeAll(keepingCapacity: true) }
    for s in 0..<tables.service.count where service.held[s] >= 0 {
      launchRecord.services.append(
        ServiceHolding(experiment: tables.service.globalID[s], variant: service.held[s], displayed: serviceDisplayed[s]))
    }
  }

  /// The plan's numbers of the experiment at position `index` of a version's
  /// merge order (the version's slots, then the remote experiments) and of the
  /// variant it holds at this launch.
  private func heldVariant(_ index: Int, version: Int) -> (experiment: Int, variant: Int) {
    let slotStart = tables.slotStart[version], slots = tables.slotStart[version + 1] - slotStart
    guard index < slots else {
      return (tables.remote.globalID[index - slots], remote.held[index - slots])
    }
    let slot = slotStart + index
    return (tables.slotExperiment[slot], tables.globalOfLocal[tables.slotGlobalStart[slot] + decisions[index]])
  }

  /// The assignments manager's merge at a launch, by `KeySharing.serve`: which
  /// active experiments it serves, and the clashes on keys they share.
  ///
  /// The clashes are counted at every launch, and kept as `LaunchClash`es for
  /// observers only when `observing`, since spelling out their keys
  /// allocates. In a version whose experiments share no key every active
  /// slot is served, which `display` knows; the slots' flags are then set for
  /// observers only.
  private mutating func serve(version: Int, day: Int, observing: Bool) {
    let slots = tables.slotStart[version + 1] - tables.slotStart[version], remoteCount = tables.remote.count
    if !launchClashes.isEmpty { launchClashes.removeAll(keepingCapacity: true) }
    guard !tables.clashes.isDisjoint[version] else {
      if observing {
        for index in 0..<slots { served[index] = decisions[index] >= 0 }
      }
      for r in 0..<remoteCount { served[slots + r] = remote.held[r] >= 0 }
      return
    }
    for r in 0..<remoteCount { remoteServedKeys[r] = remote.servedKeys(r) }
    if sharingVersion != version {
      sharing = tables.clashes.sharing[version]
      sharingVersion = version
    }
    var pairs: [Int] = [], sharingServed: [Bool] = []
    swap(&pairs, &clashedPairs)
    swap(&sharingServed, &self.sharingServed)
    if !pairs.isEmpty { pairs.removeAll(keepingCapacity: true) }
    // The closures only read `self`; the call writes the locals.
    let decisions = self.decisions, servedKeys = remoteServedKeys
    sharing.serve(
      isActive: { $0 < slots ? decisions[$0] >= 0 : remote.held[$0 - slots] >= 0 },
      sharesKey: { pair in
        tables.clashes.entryRange(version: version, pair: pair).contains {
          ClashTables.isShared(tables.clashes.entries[$0], servedKeys: servedKeys)
        }
      },
      served: &sharingServed
    ) { pairs.append($0) }
    for index in 0..<(slots + remoteCount) { served[index] = sharingServed[index] }
    for pair in pairs {
      let sides = sharing.sides(ofPair: pair)
      let kept = heldVariant(sides.first, version: version)
      for index in tables.clashes.entryRange(version: version, pair: pair)
      where ClashTables.isShared(tables.clashes.entries[index], servedKeys: servedKeys) {
        let row = tables.clashes.entries[index].row
        clashSeen[row] = true
        tally.conflicts[row].firstDay = min(tally.conflicts[row].firstDay ?? day, day)
        tally.conflicts[row].lastDay = max(tally.conflicts[row].lastDay ?? day, day)
        let side = tables.clashes.rowFirstExperiment[row] == kept.experiment ? 0 : tables.clashes.rowSecondOffset[row]
        clashServedSeen[tables.clashes.servedStart[row] + side + kept.variant] = true
      }
      if observing {
        let discarded = heldVariant(sides.second, version: version)
        let keys = tables.clashes.entryRange(version: version, pair: pair)
          .filter { ClashTables.isShared(tables.clashes.entries[$0], servedKeys: servedKeys) }
          .map { plan.sharedKeys[tables.clashes.entries[$0].row].key }
        launchClashes.append(LaunchClash(
          keys: keys.sorted(), servedExperiment: kept.experiment, servedVariant: kept.variant,
          discardedExperiment: discarded.experiment, discardedVariant: discarded.variant))
      }
    }
    swap(&pairs, &clashedPairs)
    swap(&sharingServed, &self.sharingServed)
  }

  /// Counts the device once for each shared key it met a clash on, and for
  /// each variant served at one.
  private mutating func countClashDevices() {
    for row in clashSeen.indices where clashSeen[row] {
      tally.conflicts[row].devices += 1
      let start = tables.clashes.servedStart[row]
      for index in start..<tables.clashes.servedStart[row + 1] where clashServedSeen[index] {
        tally.conflicts[row].served[index - start] += 1
      }
    }
  }

  /// Adds the counts of every device simulated so far to `total`.
  func finish(into total: inout RunTally) {
    var tally = tally
    tally.remote.merge(remote.tally)
    tally.service.merge(service.tally)
    tally.enrollment.merge(enrollment.tally)
    tally.launches += launches
    for index in upgrades.indices { tally.upgrades[index] += upgrades[index] }
    let versions = tables.versionCount
    let metrics = tables.metricCount
    for experiment in 0..<tables.experimentCount {
      let start = tables.dailyStart[experiment]
      for index in tally.experiments[experiment].dailyNewExposures.indices {
        tally.experiments[experiment].dailyNewExposures[index] += dailyNewExposures[start + index]
      }
      for index in 0..<(tally.experiments[experiment].dailyCohorts.count) {
        tally.experiments[experiment].dailyCohorts[index].merge(dailyCohorts[start * metrics + index])
      }
      tally.experiments[experiment].mixedDevices += mixedDevices[experiment]
      for slot in tables.experimentSlots[experiment] where wholeSlotFirstExposures[slot] > 0 {
        forEachShare(experiment, slot: slot, eligible: tables.slotVariantMask[slot]) {
          tally.experiments[experiment].variants[$0].expectedFirstExposed.add($1, times: wholeSlotFirstExposures[slot])
        }
      }
      for variant in 0..<tables.variantCount(experiment) {
        let cell = tables.variantStart[experiment] + variant
        tally.experiments[experiment].variants[variant].expectedFirstExposed.merge(expectedFirstExposed[cell])
        tally.experiments[experiment].variants[variant].exposed += exposed[cell]
        tally.experiments[experiment].variants[variant].contaminated += contaminated[cell]
        tally.experiments[experiment].variants[variant].firstExposed += firstExposed[cell]
        for metric in 0..<metrics {
          tally.experiments[experiment].variants[variant].firstExposure[metric].merge(firstExposure[cell * metrics + metric])
          tally.experiments[experiment].variants[variant].uncontaminated[metric]
            .merge(uncontaminated[cell * metrics + metric])
          if tables.hasCovariates {
            tally.experiments[experiment].variants[variant].covariates[metric]
              .merge(covariateTallies[cell * metrics + metric])
          }
        }
        let ratios = tables.ratioNumerators.count
        for ratio in 0..<ratios {
          tally.experiments[experiment].variants[variant].ratios[ratio].merge(ratioTallies[cell * ratios + ratio])
        }
        for slot in 0..<tables.histogramCount {
          let start = (cell * tables.histogramCount + slot) * AmountHistogram.bucketCount
          for bucket in 0..<AmountHistogram.bucketCount {
            tally.experiments[experiment].variants[variant].histograms[slot].counts[bucket] += histogramCounts[start + bucket]
          }
        }
        for (slot, histogram) in tables.winsorizedHistograms.enumerated() {
          let start = (cell * tables.winsorizedCount + slot) * AmountHistogram.bucketCount
          for bucket in 0..<AmountHistogram.bucketCount {
            tally.experiments[experiment].variants[variant].histograms[histogram].moments[bucket]
              .merge(histogramMoments[start + bucket])
          }
        }
      }
      for pair in 0..<(versions * versions) {
        let base = (pair * tables.experimentCount + experiment) * 6
        tally.experiments[experiment].transitions[pair].kept += transitions[base]
        tally.experiments[experiment].transitions[pair].reassigned += transitions[base + 1]
        tally.experiments[experiment].transitions[pair].deactivated += transitions[base + 2]
        tally.experiments[experiment].transitions[pair].activated += transitions[base + 3]
        tally.experiments[experiment].transitions[pair].returned += transitions[base + 4]
        tally.experiments[experiment].transitions[pair].returnedOnAnotherVariant += transitions[base + 5]
      }
    }
    total.merge(tally)
  }

  /// Each later version's upgrade day: never with the version's never-upgrade
  /// share, otherwise its release day plus an exponential delay.
  private mutating func drawUpgradeDays(_ stream: RandomStream) {
    var stream = stream
    for version in 1..<tables.versionCount {
      let never = stream.nextUnit() < tables.neverUpgradeShares[version]
      let delay = stream.nextExponential(mean: tables.meanDelays[version])
      upgradeDays[version] = never ? .infinity : Double(tables.releaseDays[version]) + delay
    }
    var earliest = Double.infinity
    for version in (0..<tables.versionCount).reversed() {
      earliest = min(earliest, upgradeDays[version])
      installableFrom[version] = earliest
    }
  }

  private mutating func reset() {
    activeCount = 0
    shownExperimentCount = 0
    recall.fill(0)
    lastActive.fill(0)
    displayedMask.fill(0)
    firstVariant.fill(-1)
    displayDays.fill(0)
    clashSeen.fill(false)
    clashServedSeen.fill(false)
  }

  /// The local source at launch: records of experiments the version does not
  /// define are deleted, and every defined experiment is decided.
  private mutating func decide(version: Int, token: ActiveExperimentsToken, draws: inout RandomStream) {
    for index in tables.undefinedStart[version]..<tables.undefinedStart[version + 1] {
      forget(tables.undefined[index], as: 0)
    }
    let slotStart = tables.slotStart[version]
    activeCount = 0
    for slot in slotStart..<tables.slotStart[version + 1] {
      let experiment = tables.slotExperiment[slot]
      let code = Int(recall[experiment])
      let remembered: LocalRecall
      switch code {
      case 0: remembered = .nothing
      case 1: remembered = .inactive
      default:
        let local = tables.localOfGlobal[tables.slotLocalStart[slot] + code - 2]
        remembered = local >= 0 ? .variant(local) : .deletedVariant
      }
      let decision = LocalDecision.decide(recall: remembered, range: tables.slotRange[slot], token: token) {
        tables.select(slot: slot, bits: draws.next())
      }
      decisions[slot - slotStart] = decision.variant ?? -1
      let global = decision.variant.map { tables.globalOfLocal[tables.slotGlobalStart[slot] + $0] }
      if let global {
        activeIndexes[activeCount] = slot - slotStart
        activeExperiments[activeCount] = experiment
        activeVariants[activeCount] = global
        activeCount += 1
      }
      if case .variant = remembered {
        eligibleVariants[experiment] &= tables.slotVariantMask[slot]
      } else if decision.variant != nil {
        selectionSlot[experiment] = slot
        eligibleVariants[experiment] = tables.slotVariantMask[slot]
      }
      forget(experiment, as: global.map { UInt8(2 + $0) } ?? 1)
    }
  }

  /// An upgrade that carries the decisions over leaves them and the active
  /// slots' indexes as they were, the versions' slots being the same in the
  /// same order: every active experiment is kept, and nothing else changes.
  @inline(__always)
  private mutating func carryDecisions(from: Int, to: Int) {
    let pair = (from * tables.versionCount + to) * tables.experimentCount
    for position in 0..<activeCount {
      transitions[(pair + activeExperiments[position]) * 6] += 1
    }
  }

  /// Replaces an experiment's record, remembering the variant it held if it
  /// was active, so that a return can be compared with it.
  private mutating func forget(_ experiment: Int, as code: UInt8) {
    if recall[experiment] >= 2 { lastActive[experiment] = recall[experiment] }
    recall[experiment] = code
  }

  /// Compares each experiment before and after an upgrade. `lastActive` holds
  /// the variant each held before its most recent change of record.
  ///
  /// Only an experiment active before or after changes a count: those active
  /// at the launch before (every record active then, since each launch
  /// decides, carries or deletes every record) and at this one.
  private mutating func countTransitions(from: Int, to: Int) {
    let pair = (from * tables.versionCount + to) * tables.experimentCount
    for position in 0..<previousActiveCount {
      let experiment = previousActiveExperiments[position]
      if recall[experiment] < 2 { transitions[(pair + experiment) * 6 + 2] += 1 }
    }
    for position in 0..<activeCount {
      let experiment = activeExperiments[position]
      let before = recallBefore[experiment], after = recall[experiment]
      let base = (pair + experiment) * 6
      if before >= 2 {
        transitions[base + (before == after ? 0 : 1)] += 1
      } else {
        transitions[base + 3] += 1
        if lastActive[experiment] >= 2 {
          transitions[base + 4] += 1
          if lastActive[experiment] != after { transitions[base + 5] += 1 }
        }
      }
    }
  }

  /// The app displays each experiment the manager served with its display
  /// probability. Which slots it displayed is kept for observers only, when
  /// `observing`.
  @inline(__always)
  private mutating func display(
    version: Int, day: Int, segment: Int, draws: inout RandomStream, enrollmentDraws: inout RandomStream,
    observing: Bool
  ) {
    let slotStart = tables.slotStart[version], slots = tables.slotStart[version + 1] - slotStart
    if observing {
      for index in 0..<slots { displayed[index] = false }
    }
    let servesEveryActiveSlot = tables.clashes.isDisjoint[version]
    for position in 0..<activeCount {
      let index = activeIndexes[position]
      guard servesEveryActiveSlot || served[index] else { continue }
      let experiment = activeExperiments[position], variant = activeVariants[position]
      guard shows(experiment, variant: variant, day: day, segment: segment, draws: &draws, enrollmentDraws: &enrollmentDraws)
      else { continue }
      if observing { displayed[index] = true }
      if record(experiment, variant: variant, day: day) {
        countExpectedFirstExposure(experiment)
      }
    }
    for r in 0..<tables.remote.count {
      remoteDisplayed[r] = false
      guard served[slots + r] else { continue }
      let experiment = tables.remote.globalID[r]
      guard
        shows(experiment, variant: remote.held[r], day: day, segment: segment, draws: &draws, enrollmentDraws: &enrollmentDraws)
      else { continue }
      remoteDisplayed[r] = true
      if record(experiment, variant: remote.held[r], day: day) {
        countExpectedFirstExposure(experiment, shares: remote.selectionShares(r))
      }
    }
    for s in 0..<tables.service.count {
      serviceDisplayed[s] = false
      guard service.held[s] >= 0 else { continue }
      let experiment = tables.service.globalID[s]
      guard
        shows(experiment, variant: service.held[s], day: day, segment: segment, draws: &draws, enrollmentDraws: &enrollmentDraws)
      else { continue }
      serviceDisplayed[s] = true
      if record(experiment, variant: service.held[s], day: day) {
        countExpectedFirstExposure(experiment, shares: service.selectionShares(s))
      }
    }
  }

  /// Whether the app shows an experiment active on `variant` at this launch:
  /// its enrollment rule admits it (enrolling the device when its policy
  /// says so), then the display draw succeeds.
  @inline(__always)
  private mutating func shows(
    _ experiment: Int, variant: Int, day: Int, segment: Int, draws: inout RandomStream, enrollmentDraws: inout RandomStream
  ) -> Bool {
    let rule = hasEnrollment ? enrollment.rule(of: experiment) : -1
    if rule >= 0,
      !enrollment.admits(
        rule: rule, variant: variant, day: day, segment: tables.segmentNames[segment], draws: &enrollmentDraws)
    { return false }
    guard draws.nextBernoulli(tables.displayProbabilities[experiment]) else { return false }
    if rule >= 0 { enrollment.shown(rule: rule, variant: variant) }
    return true
  }

  /// At the device's first display of an experiment a service assigned: the
  /// split that assigned its variant, added to the expected first exposures.
  private mutating func countExpectedFirstExposure(_ experiment: Int, shares: [Double]) {
    for (variant, share) in shares.enumerated() where share > 0 {
      expectedFirstExposed[tables.variantStart[experiment] + variant].add(share)
    }
  }

  /// Counts one display; returns whether it is the device's first of the experiment.
  @inline(__always)
  private mutating func record(_ experiment: Int, variant: Int, day: Int) -> Bool {
    displayDays[tables.variantStart[experiment] + variant] += 1
    if displayedMask[experiment] & (1 &<< UInt64(variant)) == 0 {
      dailyNewExposures[tables.dailyStart[experiment] + day * tables.variantCount(experiment) + variant] += 1
    }
    displayedMask[experiment] |= 1 &<< UInt64(variant)
    guard firstVariant[experiment] < 0 else { return false }
    firstVariant[experiment] = variant
    shownExperiments[shownExperimentCount] = experiment
    shownExperimentCount += 1
    firstDay[experiment] = day
    return true
  }

  /// Draws each metric under what the device was shown, with its covariate
  /// where the metric has one, and counts the device for every experiment it
  /// was displayed.
  private mutating func drawOutcomes(_ random: DeviceRandom, segment: Int) {
    sortShownExperiments()
    guard tables.metricCount > 0 else {
      countExposures()
      countEnrollments(segment: segment)
      return
    }
    var stream = random.stream(.outcomes)
    var covariateDraws = random.stream(.covariates, ifUsed: tables.hasCovariates)
    let experiments = tables.experimentCount
    for metric in 0..<tables.metricCount {
      var factor = 1.0
      for position in 0..<shownExperimentCount {
        let experiment = shownExperiments[position]
        let lift = mixedLift(experiment, metric: metric, segment: segment)
        mixedLifts[metric * experiments + experiment] = lift
        factor *= 1 + lift
      }
      factors[metric] = factor
      let baseline = tables.baseline(metric: metric, segment: segment), grid = tables.metricGrids[metric]
      if let correlation = tables.covariateCorrelations[metric] {
        let (outcome, standardBaseline) = tables.metricKinds[metric].drawWithStandardBaseline(
          baseline: baseline, factor: factor, grid: grid, from: &stream, spare: &covariateDraws)
        outcomes[metric] = outcome
        covariates[metric] =
          correlation * standardBaseline + (1 - correlation * correlation).squareRoot() * covariateDraws.nextNormal()
      } else {
        outcomes[metric] = tables.metricKinds[metric].draw(baseline: baseline, factor: factor, grid: grid, from: &stream)
      }
    }
    countExposures()
    countEnrollments(segment: segment)
    let excludeContaminated = tables.excludeContaminated, metrics = tables.metricCount
    for position in 0..<shownExperimentCount {
      let experiment = shownExperiments[position], mask = displayedMask[experiment]
      let pure = mask & (mask - 1) == 0
      let first = firstVariant[experiment]
      let cell = (tables.variantStart[experiment] + first) * metrics
      let cohort =
        (tables.dailyStart[experiment] + firstDay[experiment] * tables.variantCount(experiment) + first) * metrics
      for metric in 0..<metrics {
        // What the device would expect had it been shown only its first variant here.
        let others = factors[metric] / (1 + mixedLifts[metric * experiments + experiment])
        let expected = tables.metricKinds[metric].expectation(
          baseline: tables.baseline(metric: metric, segment: segment),
          factor: others * (1 + tables.lift(metric: metric, experiment: experiment, variant: first, segment: segment)))
        // On the grids every tally of the metric shares, once for the three tallies.
        let outcome = outcomes[metric], steps = tables.metricGrids[metric].steps(outcome)
        let expectedSteps = firstExposure[cell + metric].trueMeanSum.steps(expected)
        let isAmount = tables.metricKinds[metric] != .conversion, converted = !isAmount && outcome == 1
        firstExposure[cell + metric].add(outcomeSteps: steps, expectedSteps: expectedSteps, converted: converted, isAmount: isAmount)
        if pure {
          uncontaminated[cell + metric].add(outcomeSteps: steps, expectedSteps: expectedSteps, converted: converted, isAmount: isAmount)
        }
        if pure || !excludeContaminated {
          // Daily looks test means only: their cohorts need no cubes.
          dailyCohorts[cohort + metric].add(outcomeSteps: steps, expectedSteps: expectedSteps, converted: converted, isAmount: false)
          if tables.hasCovariates, tables.covariateCorrelations[metric] != nil {
            covariateTallies[cell + metric].add(
              covariate: covariates[metric], outcome: outcome, grid: tables.metricGrids[metric])
          }
          if tables.histogramCount > 0, tables.histogramSlots[metric] >= 0 {
            let bucket = AmountHistogram.bucket(steps: steps)
            let histogram = (cell / metrics * tables.histogramCount + tables.histogramSlots[metric]) * AmountHistogram.bucketCount
            histogramCounts[histogram + bucket] += 1
            if tables.winsorizedSlots[metric] >= 0 {
              let moments = (cell / metrics * tables.winsorizedCount + tables.winsorizedSlots[metric]) * AmountHistogram.bucketCount
              histogramMoments[moments + bucket].add(steps: steps)
            }
          }
        }
      }
      let ratios = tables.ratioNumerators.count
      if ratios > 0, pure || !excludeContaminated {
        let ratioCell = (tables.variantStart[experiment] + first) * ratios
        for ratio in 0..<ratios {
          let numerator = tables.ratioNumerators[ratio], denominator = tables.ratioDenominators[ratio]
          ratioTallies[ratioCell + ratio].add(
            outcomes[numerator], on: tables.metricGrids[numerator], times: outcomes[denominator],
            on: tables.metricGrids[denominator])
        }
      }
    }
  }

  /// Puts the shown experiments in the plan's order, the order in which a
  /// device's lifts multiply (a product of doubles depends on its order). The
  /// list is short: the experiments one device was shown.
  private mutating func sortShownExperiments() {
    guard shownExperimentCount > 1 else { return }
    for position in 1..<shownExperimentCount {
      let experiment = shownExperiments[position]
      var target = position
      while target > 0 && shownExperiments[target - 1] > experiment {
        shownExperiments[target] = shownExperiments[target - 1]
        target -= 1
      }
      shownExperiments[target] = experiment
    }
  }

  /// Counts the device under the variant each enrollment rule enrolled it in,
  /// with its outcomes, shown or not: the sample of the diluted estimate. The
  /// truth is its expectation had it been shown that variant.
  private mutating func countEnrollments(segment: Int) {
    guard hasEnrollment else { return }
    enrollment.countSegment(segment)
    let experiments = tables.experimentCount
    for (rule, experiment) in enrollment.experiments.enumerated() {
      let variant = enrollment.enrolledVariant[rule]
      guard variant >= 0 else {
        if enrollment.wasActive[rule] { countNeverEnrolled(experiment, segment: segment) }
        continue
      }
      tally.experiments[experiment].variants[variant].enrolled += 1
      if displayedMask[experiment] != 0 { tally.experiments[experiment].variants[variant].enrolledShown += 1 }
      for metric in 0..<tables.metricCount {
        let shown = displayedMask[experiment] != 0 ? mixedLifts[metric * experiments + experiment] : 0
        let expected = tables.metricKinds[metric].expectation(
          baseline: tables.baseline(metric: metric, segment: segment),
          factor: factors[metric] / (1 + shown)
            * (1 + tables.lift(metric: metric, experiment: experiment, variant: variant, segment: segment)))
        tally.experiments[experiment].variants[variant].enrolledOutcomes[metric]
          .add(outcomes[metric], expected: expected, isConversion: tables.metricKinds[metric] == .conversion)
      }
    }
  }

  /// A device on which the experiment was active but that never enrolled:
  /// never shown it either, so its outcome carries no lift of it.
  private mutating func countNeverEnrolled(_ experiment: Int, segment: Int) {
    for metric in 0..<tables.metricCount {
      let expected = tables.metricKinds[metric].expectation(
        baseline: tables.baseline(metric: metric, segment: segment), factor: factors[metric])
      tally.experiments[experiment].neverEnrolled[metric]
        .add(outcomes[metric], expected: expected, isConversion: tables.metricKinds[metric] == .conversion)
    }
  }

  /// Adds the device's chance of being first shown each variant: the
  /// selecting slot's weights over the variants still eligible, normalised.
  private mutating func countExpectedFirstExposure(_ experiment: Int) {
    let slot = selectionSlot[experiment], eligible = eligibleVariants[experiment]
    guard eligible != tables.slotVariantMask[slot] else {
      wholeSlotFirstExposures[slot] += 1
      return
    }
    let start = tables.variantStart[experiment]
    forEachShare(experiment, slot: slot, eligible: eligible) { expectedFirstExposed[start + $0].add($1) }
  }

  /// Calls `body` with each variant in `eligible` and its share under the slot's weights.
  @inline(__always)
  private func forEachShare(_ experiment: Int, slot: Int, eligible: UInt64, _ body: (Int, Double) -> Void) {
    let base = slot * tables.variantStride
    let variants = tables.variantCount(experiment)
    var total: UInt64 = 0
    for variant in 0..<variants where eligible & (1 &<< UInt64(variant)) != 0 {
      total += tables.slotWeights[base + variant]
    }
    for variant in 0..<variants where eligible & (1 &<< UInt64(variant)) != 0 {
      body(variant, Double(tables.slotWeights[base + variant]) / Double(total))
    }
  }

  private mutating func countExposures() {
    for position in 0..<shownExperimentCount {
      let experiment = shownExperiments[position]
      let mask = displayedMask[experiment], start = tables.variantStart[experiment]
      let pure = mask & (mask - 1) == 0
      var displayed = mask
      while displayed != 0 {
        let variant = displayed.trailingZeroBitCount
        displayed &= displayed - 1
        exposed[start + variant] += 1
        if !pure { contaminated[start + variant] += 1 }
      }
      firstExposed[start + firstVariant[experiment]] += 1
      if !pure { mixedDevices[experiment] += 1 }
    }
  }

  /// The lift an experiment's displayed variants give, weighted by display days.
  @inline(__always)
  private func mixedLift(_ experiment: Int, metric: Int, segment: Int) -> Double {
    var weighted = 0.0, days: Int32 = 0
    let start = tables.variantStart[experiment]
    // The displayed variants, in order: those with display days.
    var displayed = displayedMask[experiment]
    while displayed != 0 {
      let variant = displayed.trailingZeroBitCount
      displayed &= displayed - 1
      let count = displayDays[start + variant]
      weighted += Double(count) * tables.lift(metric: metric, experiment: experiment, variant: variant, segment: segment)
      days += count
    }
    return weighted / Double(days)
  }
}
