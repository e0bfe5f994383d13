import Lab

/// The frameworks `bench compare` runs one plan under, and how the plan's
/// dashboard changes are expressed in each (docs/compare.md). What a
/// framework cannot express is dropped and said in a note, never silently.
public enum ComparedFramework: Hashable, Sendable {
  /// Lab's local source: experiments compiled into the app, so every change
  /// ships in a new app version.
  case labLocal
  /// Lab's remote source on a Taplytics-style service.
  case labRemote
  /// A hash-bucketed platform, as its plug-in describes it.
  case platform(PlatformTraits)

  /// The name `--frameworks` takes and the comparison's folders and columns use.
  public var name: String {
    switch self {
    case .labLocal: "lab-local"
    case .labRemote: "lab-remote"
    case .platform(let traits): traits.name
    }
  }

  /// Lab's two sources, then `platforms` in their order: what `bench compare` runs by default.
  public static func all(platforms: [PlatformTraits]) -> [ComparedFramework] {
    [.labLocal, .labRemote] + platforms.map(ComparedFramework.platform)
  }

  /// `plan` expressed in this framework's terms, with a note for each change
  /// it cannot express.
  ///
  /// - Parameter plan: a scenario whose experiments are all in its `service`
  ///   section (`ComparisonError` otherwise).
  public func express(_ plan: Scenario) throws(ComparisonError) -> (scenario: Scenario, notes: [String]) {
    guard let service = plan.service else { throw .noServicePlan }
    guard plan.versions.allSatisfy(\.experiments.isEmpty), plan.remote == nil else { throw .experimentsOutsideThePlan }
    guard service.flags.isEmpty else { throw .featureFlags }
    var scenario = plan
    var notes: [String] = []
    switch self {
    case .platform(let framework):
      var expressed = service
      expressed.framework = framework
      if service.stickyChoice == true, !framework.canKeepDecisions {
        expressed.stickyChoice = nil
        notes.append("\(framework.name)'s mobile SDK keeps no decision on the device: sticky is left out")
      }
      expressed.changes = service.changes.filter { change in
        guard framework.rerandomization == nil, case .newBucketVersion = change.action else { return true }
        notes.append("day \(change.day), \(change.experiment): \(framework.vendorName) has no bucket versions; the re-randomization is left out")
        return false
      }
      notes += Self.granularityNotes(expressed, framework)
      scenario.service = expressed
    case .labRemote:
      scenario.service = nil
      scenario.remote = Self.remotePlan(service, notes: &notes)
    case .labLocal:
      scenario.service = nil
      scenario.versions = try Self.localVersions(plan, service, notes: &notes)
    }
    return (scenario, notes)
  }

  /// Where a platform's dashboard cannot hold the plan's shares exactly:
  /// traffic and weights in whole steps of its own (Unleash's rollout in
  /// percent and variant weights in thousandths, Statsig's 1,000 buckets,
  /// Eppo's 10,000 shards, LaunchDarkly's 100,000ths), rounded and said.
  static func granularityNotes(_ service: ServicePlan, _ framework: PlatformTraits) -> [String] {
    guard let steps = framework.shareSteps else { return [] }
    var notes: [String] = []
    for change in service.changes {
      let shares: [Double]
      switch change.action {
      case .start(let experiment):
        let total = experiment.variations.reduce(0) { $0 + $1.weight }
        shares = [experiment.traffic * steps.traffic] + experiment.variations.map { $0.weight / total * steps.weights }
      case .setTraffic(_, let traffic): shares = [traffic * steps.traffic]
      case .setWeights(_, let weights):
        let total = weights.values.reduce(0, +)
        shares = weights.values.map { $0 / total * steps.weights }
      default: shares = []
      }
      if shares.contains(where: { abs($0 - $0.rounded()) > 1e-9 }) {
        notes.append("day \(change.day), \(change.experiment): \(framework.name) holds \(steps.unit); the shares are rounded to them")
      }
    }
    return notes
  }

  /// The key a translated experiment controls: its name in lowerCamelCase
  /// followed by "Variation", its values the variation names.
  static func key(of experiment: String) -> String {
    experiment.prefix(1).lowercased() + experiment.dropFirst() + "Variation"
  }

  // MARK: - Lab's remote source

  /// Percentages summing to exactly 100 in proportion to the weights.
  /// The variations' weights as Taplytics percentages, 0 for all where no
  /// variation has weight (the weight went to one Taplytics never took).
  private static func percentages(_ variations: [ServiceVariation]) -> [Double] {
    let total = variations.reduce(0) { $0 + $1.weight }
    guard total > 0 else { return variations.map { _ in 0 } }
    var percentages = variations.map { ($0.weight / total * 100 * 1_000).rounded() / 1_000 }
    if let last = percentages.indices.last(where: { percentages[$0] > 0 }) {
      percentages[last] += 100 - percentages.reduce(0, +)
    }
    return percentages
  }

  private static func setPercentages(_ experiment: String, _ variations: [ServiceVariation], day: Int) -> RemoteChange {
    RemoteChange(
      day: day,
      action: .setPercentages(
        experiment: experiment,
        percentages: Dictionary(uniqueKeysWithValues: zip(variations.map(\.name), percentages(variations)))))
  }

  private static func remotePlan(_ service: ServicePlan, notes: inout [String]) -> RemotePlan {
    var changes: [RemoteChange] = []
    var defaults: [String: AssignmentValue] = [:]
    var split: [String: [ServiceVariation]] = [:]
    var removed: Set<String> = []
    func note(_ change: ServiceChange, _ text: String) {
      notes.append("day \(change.day), \(change.experiment): \(text)")
    }
    for change in service.changes {
      let name = change.experiment, key = key(of: name)
      if removed.contains(name) {
        note(change, "the experiment was removed from the service when it was paused; this change is left out")
        continue
      }
      switch change.action {
      case .start(let experiment):
        defaults[key] = .string(experiment.variations[0].name)
        split[name] = experiment.variations
        var audience = RemoteAudience(attributes: experiment.audience.attributes)
        if experiment.traffic < 1 {
          if let range = try? TokenRange(lower: 0, upper: experiment.traffic) {
            audience.tokenRange = range
          } else {
            note(change, "a traffic of 0 cannot be a token range; the experiment starts on all traffic")
          }
        }
        if experiment.audience.minimumAppVersion != nil {
          note(change, "the remote audience has no app version condition; the minimum version is left out")
        }
        let remote = RemoteExperiment(
          name: name,
          variants: zip(experiment.variations, percentages(experiment.variations)).map { variation, percentage in
            RemoteVariant(name: variation.name, percentage: percentage, values: [key: .string(variation.name)])
          },
          audience: audience)
        changes.append(RemoteChange(day: change.day, action: .add(remote, keys: [key])))
      case .setWeights(_, let weights):
        split[name] = split[name]!.map { ServiceVariation(name: $0.name, weight: weights[$0.name] ?? 0) }
        if split[name]!.allSatisfy({ $0.weight <= 0 }) {
          note(change, "the weight goes to variations the Taplytics experiment never took: every variant is at 0%, and devices not yet assigned get none")
        }
        changes.append(setPercentages(name, split[name]!, day: change.day))
      case .removeVariation(_, let variation):
        note(change, "a Taplytics variant cannot be deleted; it goes to 0% and the devices assigned to it keep it")
        split[name] = split[name]!.map { ServiceVariation(name: $0.name, weight: $0.name == variation ? 0 : $0.weight) }
        changes.append(setPercentages(name, split[name]!, day: change.day))
      case .pause:
        note(change, "pausing removes the experiment from the service: devices drop it, and it cannot come back")
        removed.insert(name)
        changes.append(RemoteChange(day: change.day, action: .remove(experiment: name)))
      case .conclude(_, let winner):
        changes.append(RemoteChange(day: change.day, action: .conclude(experiment: name, winner: winner)))
      case .setTraffic:
        note(change, "the audience of a running Taplytics experiment is fixed; the traffic change is left out")
      case .addVariation:
        note(change, "a running Taplytics experiment takes no new variant; the added variation is left out")
      case .setAudience:
        note(change, "the audience of a running Taplytics experiment is fixed; the audience change is left out")
      case .resume:
        note(change, "the experiment was not paused on the service; nothing to resume")
      case .newBucketVersion:
        note(change, "Taplytics has no bucket versions; the re-randomization is left out")
      }
    }
    return RemotePlan(defaults: defaults, fetch: service.fetch, changes: changes)
  }

  // MARK: - Lab's local source

  /// One app version per day the plan changes (the plan's own versions kept),
  /// each defining the experiments as the dashboard has them that day.
  private static func localVersions(_ plan: Scenario, _ service: ServicePlan, notes: inout [String]) throws(ComparisonError)
    -> [AppVersion]
  {
    let revisions = service.revisions
    var releases = plan.versions.map { (day: $0.releaseDay, version: $0) }
    let adoption = plan.versions.dropFirst().first?.adoption ?? Adoption(meanDelayDays: 3, neverUpgradeShare: 0)
    for revision in revisions where !releases.contains(where: { $0.day == revision.day }) {
      guard let base = plan.versions.last(where: { $0.releaseDay < revision.day }) ?? plan.versions.first else { break }
      var version = base
      version.version = "\(base.version)-day\(revision.day)"
      version.releaseDay = revision.day
      version.adoption = adoption
      version.stabilizeOnLaunch = nil
      releases.append((revision.day, version))
    }
    releases.sort { $0.day < $1.day }
    for change in service.changes {
      let place = "day \(change.day), \(change.experiment)"
      switch change.action {
      case .start(let experiment) where !experiment.audience.attributes.isEmpty || experiment.audience.minimumAppVersion != nil:
        notes.append("\(place): the local source targets by token only; the audience is left out")
      case .setAudience:
        notes.append("\(place): the local source targets by token only; the audience change is left out")
      case .newBucketVersion:
        notes.append("\(place): the local source has no bucket versions; the re-randomization is left out")
      case .pause:
        notes.append("\(place): pausing ships a version without the experiment: devices delete their record (rule ExperimentReAdded)")
      case .setTraffic:
        notes.append("\(place): the new token range reaches only devices that decide afresh (rule TokenRangeChange)")
      default:
        break
      }
    }
    var versions: [AppVersion] = []
    for (day, release) in releases {
      var version = release
      let experiments = revisions.last { $0.day <= day }?.experiments ?? []
      version.experiments = []
      for experiment in experiments {
        if let local = try localExperiment(experiment) { version.experiments.append(local) }
      }
      versions.append(version)
    }
    return versions
  }

  /// A service experiment as a local one: weights as whole numbers in the
  /// same proportions (a variation at 0 is left out), the traffic as the
  /// token range [0, traffic), the winner alone once concluded; none while
  /// paused, at 0 traffic, or with no variation of weight above 0.
  private static func localExperiment(_ experiment: ServiceExperiment) throws(ComparisonError) -> Experiment? {
    guard experiment.status != .paused, experiment.traffic > 0 else { return nil }
    let key = key(of: experiment.name)
    let variations = experiment.winner.map { winner in experiment.variations.filter { $0.name == winner } }
      ?? experiment.variations.filter { $0.weight > 0 }
    // No variation left with weight (the last one removed, or the weight moved off): no device gets one.
    guard !variations.isEmpty else { return nil }
    let largest = variations.map(\.weight).max() ?? 1
    do {
      return try Experiment(
        name: experiment.name, keys: [key],
        variants: variations.map { variation in
          Variant(
            // A concluded experiment's winner takes every device, whatever weight a later change gave it.
            name: variation.name, weight: experiment.winner != nil ? 1_000 : max(1, Int((variation.weight / largest * 1_000).rounded())),
            assignments: [key: .string(variation.name)])
        },
        baseline: variations[0].name,
        activeTokenRange: try TokenRange(lower: 0, upper: experiment.winner == nil ? experiment.traffic : 1))
    } catch {
      throw .inexpressible(experiment: experiment.name, reason: "\(error)")
    }
  }
}

/// Why a plan cannot be compared across frameworks.
public enum ComparisonError: Error, Hashable, Sendable, CustomStringConvertible {
  case noServicePlan
  case experimentsOutsideThePlan
  case featureFlags
  case inexpressible(experiment: String, reason: String)

  public var description: String {
    switch self {
    case .noServicePlan:
      return "service: is required: bench compare runs the experiments of the service section under each framework"
    case .experimentsOutsideThePlan:
      return "versions[].experiments and remote: must be empty for bench compare: put every experiment in the service section"
    case .featureFlags:
      return "service.flags: must be empty for bench compare, which compares experiments: flags are Optimizely's alone"
    case .inexpressible(let experiment, let reason):
      return "service: \(experiment) cannot be expressed as a local experiment: \(reason)"
    }
  }
}
