import Lab

/// Runs devices through the scenario's days, launch by launch, by Lab's own
/// rules: the token from `ActiveExperimentsToken`, each local experiment
/// decided by `LocalDecision` (`LocalDecisions`), remote experiments by
/// `RemoteDevice`, a hash-bucketed service's by `ServiceDevice`, and what the
/// assignments manager serves when experiments share a key by
/// `KeySharing.serve` (`ServedExperiments`).
///
/// The loop is built from parts, each owning its working memory: a counting
/// part (`DevicePart`) resets what it keeps of a device in
/// `reset(device:random:)` and adds what it counted over the batch to a
/// `RunTally` in `fold(into:tables:)`, so that each count is declared, reset
/// and folded in one file. The parts read the plan as flat tables of
/// plain numbers (`SimulationTables`), so that the loop over millions of
/// launches touches no shared reference counts. One simulator serves one batch.
///
/// It cannot be copied, as its parts cannot: they own their scratch memory
/// (`ScratchArray`). It lends the tables and its parts to each other to read,
/// as `borrowing @_addressable` arguments: the compiler refuses a write to
/// what a part is lent, and `@_addressable` passes it by address, where Swift
/// would copy a borrowed struct of this size onto the stack at every call
/// (with plain `borrowing`, `memmove` took 8% of `bench perf`'s samples and
/// the loop ran at 0.60 of the reference kernel instead of 0.70;
/// docs/performance.md). A part writes only its own memory.
struct DeviceSimulator: ~Copyable {
  let plan: SimulationPlan
  let seed: UInt64
  let replication: Int
  private let tables: SimulationTables
  private var schedule: UpgradeSchedule
  private var local: LocalDecisions
  private var transitions: TransitionCounter
  private var serving: ServedExperiments
  private var remote: RemoteDevice
  private var service: ServiceDevice
  private var enrollment: EnrollmentGate
  /// Whether the plan has remote experiments, a hash-bucketed service and
  /// enrollment rules: the loop skips the parts of those it lacks.
  private let hasRemote: Bool
  private let hasService: Bool
  private let hasEnrollment: Bool
  /// Whether an experiment's lift moves (`Novelty`): the displays then also
  /// count how much of the initial lift is left.
  private let hasNovelty: Bool
  /// Whether a day's launches after its first can change nothing but counts,
  /// so that they run as one (`repeatLaunches`): no remote or service fetch,
  /// no enrollment check and no display draw happens at a launch. A version
  /// whose experiments share a key serves each launch and keeps launching
  /// one by one.
  private let foldsRepeatedLaunches: Bool
  /// Whether a served remote experiment may show a device none of its
  /// values: custom or debug values, or keys the app never uses
  /// (`RemoteTables.unusedKeys`).
  private let mayShowNoRemoteValue: Bool
  private var exposures: Exposures
  private var expectedFirstExposures: ExpectedFirstExposures
  private var outcomes: DeviceOutcomes
  private var outcomeCounts: OutcomeCounts
  private var histograms: HistogramCounts
  private var enrollmentOutcomes: EnrollmentOutcomes
  private var launchCounts: LaunchCounts
  private var recorder: LaunchRecorder

  init(plan: SimulationPlan, seed: UInt64, replication: Int) {
    self.plan = plan
    self.seed = seed
    self.replication = replication
    let tables = SimulationTables(plan)
    schedule = UpgradeSchedule(tables: tables)
    local = LocalDecisions(tables: tables)
    transitions = TransitionCounter(tables: tables)
    serving = ServedExperiments(plan: plan, tables: tables)
    remote = RemoteDevice(plan: plan, tables: tables.remote)
    service = ServiceDevice(plan: plan, tables: tables.service)
    enrollment = EnrollmentGate(plan: plan)
    // Locals, not `self`'s: an `&&` reading a stored property of a struct
    // not yet initialised captures `self` in its autoclosure, which the
    // compiler then destroys (a noncopyable part freed before it exists).
    let hasRemote = tables.remote.count > 0, hasService = tables.service.isUsed
    let hasEnrollment = !enrollment.isEmpty
    self.hasRemote = hasRemote
    self.hasService = hasService
    self.hasEnrollment = hasEnrollment
    hasNovelty = tables.hasNovelty
    foldsRepeatedLaunches = !hasRemote && !hasService && !hasEnrollment && tables.displaysWithoutDraws
    let hasLocalValues = tables.remote.customShare > 0 || tables.remote.debugShare > 0
    mayShowNoRemoteValue = hasLocalValues || tables.remote.unusedKeys.contains { $0 != 0 }
    exposures = Exposures(tables: tables)
    expectedFirstExposures = ExpectedFirstExposures(tables: tables)
    outcomes = DeviceOutcomes(tables: tables)
    outcomeCounts = OutcomeCounts(plan: plan, tables: tables)
    histograms = HistogramCounts(plan: plan, tables: tables)
    enrollmentOutcomes = EnrollmentOutcomes(plan: plan, tables: tables)
    launchCounts = LaunchCounts(tables: tables)
    recorder = LaunchRecorder(tables: tables)
    self.tables = tables
  }

  /// Simulates device `device`.
  mutating func simulate<Observer: DeviceObserver>(device: Int, observer: inout Observer) {
    let random = DeviceRandom(seed: seed, replication: replication, device: device)
    var stream = random.stream(.token)
    let token = ActiveExperimentsToken(bits: stream.next())
    stream = random.stream(.segment)
    let segment = tables.segment(forUnit: stream.nextUnit())
    schedule.draw(
      random.stream(.adoption), updates: random.stream(.updates, ifUsed: tables.stores.isUsed), segment: segment,
      tables: tables)
    // Without an install schedule every device installs the first version on day 0.
    var installDraw = random.stream(.install, ifUsed: tables.installs.isUsed)
    let installDay = tables.installs.isUsed ? tables.installs.installDay(forUnit: installDraw.nextUnit()) : 0
    var installed = 0
    if tables.installs.isUsed && installDay > 0 {
      installed = schedule.installVersion(day: installDay, tables: tables)
      schedule.install(version: installed, day: installDay, tables: tables)
    }
    local.reset()
    resetParts(device: device, random: random)
    if Observer.isObserving {
      observer.started(
        device: device, token: token, segment: segment, installDay: installDay >= 0 ? installDay : nil,
        upgradeDays: schedule.upgradeDays.array.map { $0.isFinite ? $0 : nil })
    }

    var launchDraws = random.stream(.launches)
    var variantDraws = random.stream(.variants)
    var displayDraws = random.stream(.display)
    var fetchDraws = random.stream(.fetch, ifUsed: hasRemote)
    var assignmentDraws = random.stream(.remoteAssignment, ifUsed: hasRemote)
    var churnDraws = random.stream(.churn, ifUsed: hasRemote)
    var serviceDraws = random.stream(.serviceFetch, ifUsed: hasService)
    var activationDraws = random.stream(.activation, ifUsed: tables.service.accessBeforeDownload > 0)
    var enrollmentDraws = random.stream(.enrollment, ifUsed: hasEnrollment)
    // A device's own activity, where the plan models it (`ActivityTables`).
    let hasActivity = tables.activity.isUsed
    var activityDraws = random.stream(.activity, ifUsed: hasActivity)
    var sessionDraws = random.stream(.sessions, ifUsed: hasActivity)
    let launchProbability = hasActivity
      ? tables.activity.probability(segment: segment, base: tables.launchProbabilities[segment], draws: &activityDraws)
      : tables.launchProbabilities[segment]
    let lastDay = hasActivity
      ? tables.activity.lastDay(segment: segment, from: max(installDay, 0), installed: installDay >= 0, draws: &activityDraws)
      : .max
    var running = -1, launchOfVersion = 0, stabilized = false, churned = false, sessionsLeft = 0
    // The launch days, 64 at a time: a Bernoulli draw a day, as bits, then a
    // branch per launch rather than one on every day's draw.
    for firstDay in stride(from: 0, to: tables.days, by: 64) where !churned && firstDay <= lastDay {
      let count = min(64, tables.days - firstDay)
      var launchDays = hasActivity
        ? tables.activity.launchBits(&launchDraws, probability: launchProbability, firstDay: firstDay, count: count)
        : launchDraws.nextBernoulliBits(launchProbability, count: count)
      if tables.installs.isUsed && installDay >= firstDay {
        launchDays = Self.launchDays(launchDays, from: installDay - firstDay)
      }
      if lastDay - firstDay < 63 { launchDays &= (1 << UInt64(lastDay - firstDay + 1)) &- 1 }
      while launchDays != 0 && !churned {
        let day = firstDay + launchDays.trailingZeroBitCount
        // A day's launches: its bit stays set until the last of its sessions.
        if hasActivity {
          if sessionsLeft == 0 { sessionsLeft = tables.activity.launches(segment: segment, draws: &sessionDraws) }
          sessionsLeft -= 1
          if sessionsLeft == 0 { launchDays &= launchDays &- 1 }
        } else {
          launchDays &= launchDays &- 1
        }
        installed = schedule.installed(on: day, after: installed, versions: tables.versionCount)
        var repeats = 0
        if sessionsLeft > 0 && !Observer.isObserving && foldsRepeatedLaunches && tables.clashes.isDisjoint[installed] {
          repeats = sessionsLeft
          sessionsLeft = 0
          launchDays &= launchDays &- 1
        }
        launchCounts.countLaunch()
        let upgradedFrom = running >= 0 && running != installed ? running : -1
        if running != installed {
          running = installed
          launchOfVersion = 0
        }
        launchOfVersion += 1
        // The moments of `DisplayMoment` this launch is, as bits of their
        // positions: a device installed before day 0 had its first launch, and
        // its first of the version it runs, before the run.
        var moments: UInt8 = 1
        if tables.hasDisplayMoments && launchOfVersion == 1 && (installDay >= 0 || upgradedFrom >= 0) {
          moments |= upgradedFrom < 0 ? 6 : 4
        }

        // The local source decides at the first launch of each version. A
        // relaunch of the same version would rewrite the same records, as
        // would an upgrade that changes none of the local experiments
        // (`SimulationTables.carriesDecisions`).
        if upgradedFrom >= 0 {
          launchCounts.countUpgrade(from: upgradedFrom, to: installed)
          if tables.carriesDecisions[upgradedFrom * tables.versionCount + installed] {
            transitions.countCarried(from: upgradedFrom, to: installed, local: local)
          } else {
            local.decideAfterUpgrade(version: installed, token: token, draws: &variantDraws, tables: tables)
            transitions.count(from: upgradedFrom, to: installed, local: local)
          }
        } else if launchOfVersion == 1 {
          local.decide(version: installed, token: token, draws: &variantDraws, tables: tables)
        }
        if hasRemote {
          remote.launch(
            day: day, segment: segment, token: token, isStabilized: stabilized, draws: &fetchDraws,
            assignments: &assignmentDraws)
        }
        if hasService {
          service.launch(
            day: day, segment: segment, version: installed, draws: &serviceDraws, activationDraws: &activationDraws)
        }
        // In a version whose experiments share no key every active slot is
        // served: without remote experiments or an observer, nothing to merge.
        if Observer.isObserving || hasRemote || !tables.clashes.isDisjoint[installed] {
          serving.serve(
            version: installed, day: day, observing: Observer.isObserving, local: local, remote: remote,
            tables: tables, sharedKeys: plan.sharedKeys)
        }
        display(
          version: installed, day: day, segment: segment, moments: moments, draws: &displayDraws,
          enrollmentDraws: &enrollmentDraws, observing: Observer.isObserving)
        let stabilizes = tables.stabilizeOnLaunch[installed] == launchOfVersion
        if stabilizes {
          if !stabilized { launchCounts.countFirstStabilize(day: day) }
          stabilized = true
        }
        if hasRemote, remote.churns(isStabilized: stabilized, draws: &churnDraws) { churned = true }
        if repeats > 0 {
          repeatLaunches(repeats, version: installed, day: day, launchOfVersion: &launchOfVersion, stabilized: &stabilized)
        }
        if Observer.isObserving {
          recorder.fill(
            day: day, version: installed, launchOfVersion: launchOfVersion, stabilized: stabilizes, local: local,
            serving: serving, remote: remote, service: service, tables: tables)
          observer.launched(recorder.record)
        }
      }
    }
    if hasRemote { remote.finish() }

    launchCounts.countDevice(stabilized: stabilized)
    if !plan.sharedKeys.isEmpty { serving.countDevice(tables: tables) }
    exposures.sortShown()
    if tables.metricCount > 0 { outcomes.draw(random, segment: segment, exposures: exposures, tables: tables) }
    exposures.countDevice(tables: tables)
    if hasEnrollment {
      enrollment.countSegment(segment)
      enrollmentOutcomes.countDevice(
        gate: enrollment, segment: segment, outcomes: outcomes, exposures: exposures, tables: tables)
    }
    if tables.metricCount > 0 {
      outcomeCounts.countDevice(
        segment: segment, outcomes: outcomes, exposures: exposures, histograms: &histograms, tables: tables)
    }
    if Observer.isObserving {
      if hasEnrollment {
        let never = enrollment.experiments.indices.filter { enrollment.wasActive[$0] && enrollment.enrolledVariant[$0] < 0 }
        if !never.isEmpty { observer.neverEnrolled(never.map { enrollment.experiments[$0] }) }
      }
      observer.finished(outcomes: outcomes.outcomes.array)
    }
    if hasNovelty && tables.metricCount > 0 { countNoveltyLooks(random, segment: segment) }
  }

  /// The daily looks of the experiments with novelty, once the device's
  /// counts are over: at the end of each day from its first display of one,
  /// its outcomes drawn again from the same random numbers at the lifts its
  /// display days up to then carry, as if its run had ended that day
  /// (docs/rules/NoveltyEffects.md). A look reads the lift as it moves; a
  /// device's outcome changes from look to look only as far as its lift does.
  private mutating func countNoveltyLooks(_ random: DeviceRandom, segment: Int) {
    for day in exposures.startLooks(tables: tables) {
      if exposures.advanceLook(to: day, tables: tables) {
        outcomes.draw(random, segment: segment, exposures: exposures, tables: tables)
      }
      outcomeCounts.countLook(day: day, segment: segment, outcomes: outcomes, exposures: exposures, tables: tables)
    }
  }

  /// The app displays each experiment the manager served with its display
  /// probability. Which slots it displayed is kept for observers only, when
  /// `observing`.
  @inline(__always)
  private mutating func display(
    version: Int, day: Int, segment: Int, moments: UInt8, draws: inout RandomStream,
    enrollmentDraws: inout RandomStream, observing: Bool
  ) {
    let slots = tables.slotStart[version + 1] - tables.slotStart[version]
    if observing {
      for index in 0..<slots { recorder.slotDisplayed[index] = false }
    }
    let servesEveryActiveSlot = tables.clashes.isDisjoint[version]
    for position in 0..<local.activeCount {
      let index = local.activeIndexes[position]
      guard servesEveryActiveSlot || serving.served[index] else { continue }
      let experiment = local.activeExperiments[position], variant = local.activeVariants[position]
      guard shows(
        experiment, variant: variant, day: day, segment: segment, moments: moments, draws: &draws,
        enrollmentDraws: &enrollmentDraws)
      else { continue }
      if observing { recorder.slotDisplayed[index] = true }
      if exposures.record(experiment, variant: variant, day: day, tables: tables) {
        expectedFirstExposures.count(
          experiment, slot: local.selectionSlot[experiment], eligible: local.eligibleVariants[experiment], tables: tables)
      }
      if hasNovelty { exposures.recordNovelty(experiment, variant: variant, day: day, tables: tables) }
    }
    for r in 0..<tables.remote.count {
      recorder.remoteDisplayed[r] = false
      // A device that uses none of the values it is served sees none of the variant.
      guard serving.served[slots + r], !mayShowNoRemoteValue || remote.showsRemoteValues(r) else { continue }
      let experiment = tables.remote.globalID[r], variant = remote.held[r]
      guard shows(
        experiment, variant: variant, day: day, segment: segment, moments: moments, draws: &draws,
        enrollmentDraws: &enrollmentDraws)
      else { continue }
      recorder.remoteDisplayed[r] = true
      if exposures.record(experiment, variant: variant, day: day, tables: tables) {
        expectedFirstExposures.count(experiment, shares: remote.selectionShares(r), tables: tables)
      }
      if hasNovelty { exposures.recordNovelty(experiment, variant: variant, day: day, tables: tables) }
    }
    for s in 0..<tables.service.count {
      recorder.serviceDisplayed[s] = false
      let variant = service.held[s]
      guard variant >= 0 else { continue }
      let experiment = tables.service.globalID[s]
      guard shows(
        experiment, variant: variant, day: day, segment: segment, moments: moments, draws: &draws,
        enrollmentDraws: &enrollmentDraws)
      else { continue }
      recorder.serviceDisplayed[s] = true
      if exposures.record(experiment, variant: variant, day: day, tables: tables) {
        expectedFirstExposures.count(experiment, shares: service.selectionShares(s), tables: tables)
      }
      if hasNovelty { exposures.recordNovelty(experiment, variant: variant, day: day, tables: tables) }
    }
  }

  /// A day's `count` launches after its first, in a plan where they change
  /// nothing but counts (`foldsRepeatedLaunches`): what `count` more passes
  /// through the loop would count. Each is a launch of the version (the one
  /// that calls stabilize among them calls it), and displays again what the
  /// day's first launch displayed at every launch: an experiment shown at
  /// every launch with certainty, which that launch, served every active
  /// experiment, displayed.
  private mutating func repeatLaunches(
    _ count: Int, version: Int, day: Int, launchOfVersion: inout Int, stabilized: inout Bool
  ) {
    launchCounts.countLaunches(count)
    let stabilizeOn = tables.stabilizeOnLaunch[version]
    if stabilizeOn > launchOfVersion && stabilizeOn <= launchOfVersion + count {
      if !stabilized { launchCounts.countFirstStabilize(day: day) }
      stabilized = true
    }
    launchOfVersion += count
    for position in 0..<local.activeCount {
      let experiment = local.activeExperiments[position], variant = local.activeVariants[position]
      guard !tables.hasDisplayMoments || tables.displayMoments[experiment] == 0,
        tables.displayProbabilities[experiment] >= 1
      else { continue }
      exposures.recordRepeated(experiment, variant: variant, count: count, tables: tables)
      if hasNovelty { exposures.recordNovelty(experiment, variant: variant, day: day, count: count, tables: tables) }
    }
  }

  /// Whether the app shows an experiment active on `variant` at this launch:
  /// the launch is one of the experiment's display moments (`moments` holds
  /// this launch's), its enrollment rule admits it (enrolling the device when
  /// its policy says so), then the display draw succeeds. A screen the app
  /// does not open runs no enrollment check and draws nothing.
  @inline(__always)
  private mutating func shows(
    _ experiment: Int, variant: Int, day: Int, segment: Int, moments: UInt8, draws: inout RandomStream,
    enrollmentDraws: inout RandomStream
  ) -> Bool {
    if tables.hasDisplayMoments && moments & (1 << tables.displayMoments[experiment]) == 0 { return false }
    let rule = hasEnrollment ? enrollment.rule(of: experiment) : -1
    if rule >= 0,
      !enrollment.admits(
        rule: rule, variant: variant, day: day, segment: tables.segmentNames[segment], draws: &enrollmentDraws)
    { return false }
    guard draws.nextBernoulli(tables.displayProbabilities[experiment]) else { return false }
    if rule >= 0 { enrollment.shown(rule: rule, variant: variant) }
    return true
  }

  /// A new device for every counting part (`DevicePart`) the plan uses, in
  /// the order of `finish`: the others keep nothing, and a call each would
  /// cost every device.
  @inline(__always)
  private mutating func resetParts(device: Int, random: DeviceRandom) {
    launchCounts.reset(device: device, random: random)
    transitions.reset(device: device, random: random)
    serving.reset(device: device, random: random)
    if hasRemote { remote.reset(device: device, random: random) }
    if hasService { service.reset(device: device, random: random) }
    if hasEnrollment { enrollment.reset(device: device, random: random) }
    exposures.reset(device: device, random: random)
    expectedFirstExposures.reset(device: device, random: random)
    outcomeCounts.reset(device: device, random: random)
    histograms.reset(device: device, random: random)
    enrollmentOutcomes.reset(device: device, random: random)
  }

  /// A word of launch draws for a device installed `offset` days after the
  /// word's first day: no launch before the install, and a launch on its day,
  /// as installing the app is opening it.
  @inline(__always)
  static func launchDays(_ draws: UInt64, from offset: Int) -> UInt64 {
    guard offset < 64 else { return 0 }
    let fromInstall = UInt64.max << UInt64(offset)
    return draws & fromInstall | 1 << UInt64(offset)
  }

  /// The counts of every device simulated so far: each counting part's (`DevicePart`).
  func finish() -> RunTally {
    var tally = RunTally(plan: plan)
    launchCounts.fold(into: &tally, tables: tables)
    transitions.fold(into: &tally, tables: tables)
    serving.fold(into: &tally, tables: tables)
    remote.fold(into: &tally, tables: tables)
    service.fold(into: &tally, tables: tables)
    enrollment.fold(into: &tally, tables: tables)
    exposures.fold(into: &tally, tables: tables)
    expectedFirstExposures.fold(into: &tally, tables: tables)
    outcomeCounts.fold(into: &tally, tables: tables)
    histograms.fold(into: &tally, tables: tables)
    enrollmentOutcomes.fold(into: &tally, tables: tables)
    return tally
  }
}
