import Foundation
import Simulation

/// The performance workload written as one plain loop, for `bench perf` to
/// measure the engine against: the same devices, random streams, launches,
/// choices and counts, with nothing of the engine's generality (any plan,
/// observers, remote and service experiments, exact sums).
///
/// It knows the workload's shape (`PerformanceWorkload`): every version
/// defines the same experiments, with 3 variants of weight 1 on disjoint
/// token ranges, versions are released to every device on consecutive days,
/// every device launches every day and sees every experiment it is served,
/// and one conversion metric has a baseline of 0.1 and a lift of 0.05 on
/// Experiment0's second variant. In `PerformanceWorkload.World` a device
/// also draws its install day, its activity probability and the day it stops,
/// launches on the days its draws say, several times on each, and the
/// versions come weekly. Its counts equal the engine's
/// (`ReferenceKernelTests`), which is what makes the ratio of their speeds a
/// fair figure.
public struct ReferenceKernel: Sendable {
  public let seed: UInt64
  public let experiments: Int
  public let versions: Int
  public let days: Int
  public static let variants = 3
  static let baseline = 0.1
  static let lift = 0.05
  /// Per version, its release day.
  private let releaseDays: [Double]
  /// The world's tables, nil for every device launching daily from day 0.
  private let world: WorldTables?

  /// The loop for the workload of `experiments` experiments, `versions` versions and `days` days
  /// (`PerformanceWorkload.scenario`), drawing from the streams of `seed` as the engine does; with
  /// `world`, in `PerformanceWorkload.World`.
  public init(seed: UInt64, experiments: Int, versions: Int, days: Int, world: Bool = false) {
    self.seed = seed
    self.experiments = experiments
    self.versions = versions
    self.days = days
    let interval = world ? PerformanceWorkload.World.releaseInterval : 1
    releaseDays = (0..<versions).map { Double($0 * interval) }
    self.world = world ? WorldTables(days: days) : nil
  }

  /// `PerformanceWorkload.World`'s numbers as the loop reads them.
  private struct WorldTables: Sendable {
    /// The chance of an install before day 0, then cumulated over the days;
    /// infinite from the last day with installs on.
    let cumulativeInstalls: [Double]
    let alpha: Double, beta: Double, meanProbability: Double
    let extraLaunches: Double
    let hazard: Double, firstWeekHazard: Double
    /// By `day % 7`, day 0 a Monday.
    let dayFactors: [Double]

    init(days: Int) {
      let shares = PerformanceWorkload.World.installs.shares(days: days)
      var cumulative = [shares.existing]
      for share in shares.daily { cumulative.append(cumulative.last! + share) }
      let last = ([shares.existing] + shares.daily).lastIndex { $0 > 0 } ?? 0
      for index in last..<cumulative.count { cumulative[index] = .infinity }
      cumulativeInstalls = cumulative
      let activity = PerformanceWorkload.World.activity, probability = activity.probability!
      (alpha, beta, meanProbability) = (probability.alpha, probability.beta, probability.mean)
      extraLaunches = activity.launchesPerActiveDay - 1
      (hazard, firstWeekHazard) = (activity.inactivityHazard, activity.firstWeekInactivityHazard!)
      dayFactors = PerformanceWorkload.World.weekdayFactors
    }

    /// −1 for a device installed before day 0, else its install day.
    func installDay(forUnit unit: Double) -> Int {
      // The first entry above the draw, by halving the entries left to search.
      var first = 0, left = cumulativeInstalls.count
      while left > 0 {
        let half = left / 2
        if unit >= cumulativeInstalls[first + half] {
          first += half + 1
          left -= half + 1
        } else {
          left = half
        }
      }
      return first - 1
    }

    /// The last day a device starting on `first` launches: a geometric count
    /// of days at the hazard, the first week's for a device installed then.
    func lastDay(from first: Int, installed: Bool, unit: Double) -> Int {
      let week = 7.0
      guard installed else {
        let stay = (log(unit) / log1p(-hazard)).rounded(.down)
        return stay >= Double(Int32.max) ? .max : first + Int(stay)
      }
      let early = (log(unit) / log1p(-firstWeekHazard)).rounded(.down)
      if early < week { return first + Int(early) }
      let stay = week + max(((log(unit) - week * log1p(-firstWeekHazard)) / log1p(-hazard)).rounded(.down), 0)
      return stay >= Double(Int32.max) ? .max : first + Int(stay)
    }
  }

  /// What the loop counts, in flat arrays.
  public struct Counts: Sendable, Equatable {
    public internal(set) var launches = 0
    public internal(set) var upgrades: [Int]
    /// By `experiment * variants + variant`.
    public internal(set) var exposed: [Int]
    public internal(set) var contaminated: [Int]
    public internal(set) var firstExposed: [Int]
    public internal(set) var conversions: [Int]
    public internal(set) var expectedSum: [Double]
    /// Devices shown one variant only, and their conversions.
    public internal(set) var uncontaminated: [Int]
    public internal(set) var uncontaminatedConversions: [Int]
    /// By `(experiment * days + first day) * variants + first variant`.
    public internal(set) var cohorts: [Int]
    public internal(set) var cohortConversions: [Int]
    /// By `(experiment * days + day) * variants + variant`.
    public internal(set) var dailyNewExposures: [Int]
    /// By `((experiment * versions + from) * versions + to) * 4 + kind`:
    /// kept, reassigned, deactivated, activated.
    public internal(set) var transitions: [Int]

    init(experiments: Int, versions: Int, days: Int) {
      let cells = experiments * ReferenceKernel.variants
      upgrades = Array(repeating: 0, count: versions * versions)
      exposed = Array(repeating: 0, count: cells)
      contaminated = exposed
      firstExposed = exposed
      conversions = exposed
      expectedSum = Array(repeating: 0, count: cells)
      uncontaminated = exposed
      uncontaminatedConversions = exposed
      dailyNewExposures = Array(repeating: 0, count: cells * days)
      cohorts = dailyNewExposures
      cohortConversions = dailyNewExposures
      transitions = Array(repeating: 0, count: experiments * versions * versions * 4)
    }

    mutating func add(_ other: Counts) {
      launches += other.launches
      for i in upgrades.indices { upgrades[i] += other.upgrades[i] }
      for i in exposed.indices {
        exposed[i] += other.exposed[i]
        contaminated[i] += other.contaminated[i]
        firstExposed[i] += other.firstExposed[i]
        conversions[i] += other.conversions[i]
        expectedSum[i] += other.expectedSum[i]
        uncontaminated[i] += other.uncontaminated[i]
        uncontaminatedConversions[i] += other.uncontaminatedConversions[i]
      }
      for i in dailyNewExposures.indices {
        dailyNewExposures[i] += other.dailyNewExposures[i]
        cohorts[i] += other.cohorts[i]
        cohortConversions[i] += other.cohortConversions[i]
      }
      for i in transitions.indices { transitions[i] += other.transitions[i] }
    }
  }

  /// Simulates `devices` of replication 0 in batches of `batchSize`,
  /// `threads` batches at a time, and adds up their counts.
  public func run(devices: Int, threads: Int, batchSize: Int = 16384) async -> Counts {
    let batches = (devices + batchSize - 1) / batchSize
    var total = Counts(experiments: experiments, versions: versions, days: days)
    await withTaskGroup(of: Counts.self) { group in
      var next = 0
      func start() {
        let first = next * batchSize
        next += 1
        group.addTask { self.run(first..<min(first + batchSize, devices)) }
      }
      while next < min(max(threads, 1), batches) { start() }
      while let counts = await group.next() {
        if next < batches { start() }
        total.add(counts)
      }
    }
    return total
  }

  /// The loop itself, over one batch of devices.
  func run(_ devices: Range<Int>) -> Counts {
    let variants = Self.variants
    var counts = Counts(experiments: experiments, versions: versions, days: days)
    var recall = Array(repeating: 0, count: experiments)
    var before = recall
    var firstVariant = recall, firstDay = recall
    var shownMask = recall
    var displayDays = Array(repeating: 0, count: experiments * variants)
    var upgradeDay = Array(repeating: 0.0, count: versions)
    // The world's per-day figures, read once: the plain workload's day loop tests one flag.
    let isWorld = world != nil, dayFactors = world?.dayFactors ?? [], extraLaunches = world?.extraLaunches ?? 0
    for device in devices {
      let random = DeviceRandom(seed: seed, replication: 0, device: device)
      var stream = random.stream(.token)
      let token = Double(stream.next() >> 11) * 0x1p-53
      stream = random.stream(.segment)
      _ = stream.nextUnit()
      stream = random.stream(.adoption)
      for version in 1..<versions {
        let never = stream.nextUnit() < 0
        upgradeDay[version] = never ? .infinity : releaseDays[version]
      }
      for e in 0..<experiments {
        recall[e] = 0
        shownMask[e] = 0
        firstVariant[e] = -1
      }
      for i in displayDays.indices { displayDays[i] = 0 }

      // Every day from day 0, once; in the world, the days the device's draws say, as often as they say.
      // The install day (−1: before day 0) launches whatever the draws say.
      var installDay = -1, lastLaunchDay = days - 1, probability = 1.0
      // Without the world the launch and session streams are never drawn from: no stream is derived for them.
      var launchDraws = stream, sessionDraws = stream
      if let world {
        launchDraws = random.stream(.launches)
        sessionDraws = random.stream(.sessions)
        var install = random.stream(.install)
        installDay = world.installDay(forUnit: install.nextUnit())
        var activity = random.stream(.activity)
        let x = activity.nextUnitMeanGamma(shape: world.alpha) * world.alpha
        let y = activity.nextUnitMeanGamma(shape: world.beta) * world.beta
        probability = x + y > 0 ? x / (x + y) : world.meanProbability
        lastLaunchDay = min(
          lastLaunchDay,
          world.lastDay(from: max(installDay, 0), installed: installDay >= 0, unit: activity.nextOpenUnit()))
      }
      var choices = random.stream(.variants)
      var running = -1
      for day in 0..<days {
        var launches = 1
        if isWorld {
          // One draw a day from day 0, as the engine's launch bits are, whatever the device's first day.
          let launched = launchDraws.nextBernoulli(min(1, probability * dayFactors[day % 7]))
          guard day <= lastLaunchDay else { break }
          guard day == installDay || (day > installDay && launched) else { continue }
          if extraLaunches > 0 { launches = min(1 + sessionDraws.nextPoisson(mean: extraLaunches), 16) }
        }
        var installed = max(running, 0)
        while installed + 1 < versions && upgradeDay[installed + 1] <= Double(day) { installed += 1 }
        counts.launches += launches
        let upgraded = running >= 0 && running != installed
        if upgraded {
          for e in 0..<experiments { before[e] = recall[e] }
        }
        for e in 0..<experiments where recall[e] == 0 {
          let lower = Double(e) / Double(experiments), upper = Double(e + 1) / Double(experiments)
          guard token >= lower && (token < upper || (e == experiments - 1 && token == 1)) else {
            recall[e] = 1
            continue
          }
          let ticket = UInt64(variants).multipliedFullWidth(by: choices.next()).high
          recall[e] = 2 + Int(ticket)
        }
        if upgraded {
          counts.upgrades[running * versions + installed] += 1
          for e in 0..<experiments {
            let base = ((e * versions + running) * versions + installed) * 4
            switch (before[e] >= 2, recall[e] >= 2) {
            case (true, true): counts.transitions[base + (before[e] == recall[e] ? 0 : 1)] += 1
            case (true, false): counts.transitions[base + 2] += 1
            case (false, true): counts.transitions[base + 3] += 1
            case (false, false): break
            }
          }
        }
        running = installed
        for e in 0..<experiments where recall[e] >= 2 {
          let variant = recall[e] - 2
          displayDays[e * variants + variant] += launches
          if shownMask[e] & (1 << variant) == 0 {
            counts.dailyNewExposures[(e * days + day) * variants + variant] += 1
            shownMask[e] |= 1 << variant
          }
          if firstVariant[e] < 0 {
            firstVariant[e] = variant
            firstDay[e] = day
          }
        }
      }

      // Experiment0's lift, mixed over the days each variant was shown.
      var factor = 1.0, ownLift = 0.0
      if shownMask[0] != 0 {
        var shownDays = 0
        for variant in 0..<variants { shownDays += displayDays[variant] }
        ownLift = Self.lift * Double(displayDays[1]) / Double(shownDays)
        factor = 1 + ownLift
      }
      var outcomes = random.stream(.outcomes)
      let converted = outcomes.nextUnit() < Self.baseline * factor
      for e in 0..<experiments where shownMask[e] != 0 {
        let first = firstVariant[e], cell = e * variants + first
        let pure = shownMask[e] & (shownMask[e] - 1) == 0
        for variant in 0..<variants where shownMask[e] & (1 << variant) != 0 {
          counts.exposed[e * variants + variant] += 1
          if !pure { counts.contaminated[e * variants + variant] += 1 }
        }
        counts.firstExposed[cell] += 1
        let others = e == 0 ? 1 : factor
        counts.expectedSum[cell] += Self.baseline * others * (e == 0 && first == 1 ? 1 + Self.lift : 1)
        let cohort = (e * days + firstDay[e]) * variants + first
        counts.cohorts[cohort] += 1
        if pure { counts.uncontaminated[cell] += 1 }
        if converted {
          counts.conversions[cell] += 1
          counts.cohortConversions[cohort] += 1
          if pure { counts.uncontaminatedConversions[cell] += 1 }
        }
      }
    }
    return counts
  }
}
