/// How devices take a version: their delays or the observed curve, and the
/// stores' rollouts (docs/rules/StoreRollouts.md, docs/rules/AdoptionCurve.md).
extension ScenarioReader {
  func adoption(_ node: JSONNode, days: Int) throws(ScenarioError) -> Adoption {
    let object = try node.object(fields: ScenarioFields.adoption)
    if let curveNode = object.optional("curve") {
      for field in ["meanDelayDays", "neverUpgradeShare", "automaticShare"] {
        if let other = object.optional(field) {
          throw other.error("cannot be given with 'curve': the curve is the observed adoption, delays and never-upgraders included")
        }
      }
      var adoption = Adoption(meanDelayDays: 0, neverUpgradeShare: 0)
      adoption.curve = try curve(curveNode, days: days)
      return adoption
    }
    guard let delayNode = object.optional("meanDelayDays") else {
      throw ScenarioError(
        path: "\(node.path).meanDelayDays",
        message: "is required, or an observed 'curve', e.g. {\"meanDelayDays\": 7} or {\"curve\": [{\"day\": 7, \"share\": 0.6}]}")
    }
    let meanDelayDays = try delayNode.double()
    guard ScenarioLimits.meanDelayDays.contains(meanDelayDays) else {
      throw delayNode.error(
        "must lie between 0 and \(NumberText.plain(ScenarioLimits.meanDelayDays.upperBound)) (0: everyone upgrades on release day)")
    }
    let neverUpgradeShare = try object.optional("neverUpgradeShare").map { node throws(ScenarioError) in
      try probability(node)
    } ?? 0
    var adoption = Adoption(meanDelayDays: meanDelayDays, neverUpgradeShare: neverUpgradeShare)
    adoption.automaticShare = try object.optional("automaticShare").map { node throws(ScenarioError) in
      try probability(node)
    } ?? 0
    return adoption
  }

  /// Points whose days strictly rise and whose shares never fall; the first
  /// may be on day 0, the share updated on the release day itself. Each
  /// point may say where its share lies (`low` ≤ `share` ≤ `high`, a fitted
  /// curve's interval), every point of the curve or none, with lows and
  /// highs that never fall either: each end is a curve of its own.
  private func curve(_ node: JSONNode, days: Int) throws(ScenarioError) -> [AdoptionPoint] {
    let nodes = try node.array(count: 1...days, of: "points")
    var points: [AdoptionPoint] = []
    for pointNode in nodes {
      let object = try pointNode.object(fields: ScenarioFields.adoptionPoint)
      let dayNode = try object.required("day"), shareNode = try object.required("share")
      var point = AdoptionPoint(day: try dayNode.double(in: 0...Double(days)), share: try probability(shareNode))
      let lowNode = object.optional("low"), highNode = object.optional("high")
      if let lowNode, let highNode {
        let low = try probability(lowNode), high = try probability(highNode)
        guard low <= point.share else { throw lowNode.error("must not exceed the point's share \(NumberText.plain(point.share))") }
        guard high >= point.share else { throw highNode.error("must not be below the point's share \(NumberText.plain(point.share))") }
        point.interval = low...high
      } else if let given = lowNode ?? highNode {
        throw given.error("needs both 'low' and 'high': the interval the share lies in, e.g. {\"day\": 7, \"share\": 0.6, \"low\": 0.57, \"high\": 0.63}")
      }
      if let previous = points.last {
        guard point.day > previous.day else {
          throw dayNode.error("must be later than the previous point's day \(NumberText.plain(previous.day)): list points in order")
        }
        guard point.share >= previous.share else {
          throw shareNode.error("must not fall below the previous point's \(NumberText.plain(previous.share)): a share updated only grows")
        }
        guard (previous.interval == nil) == (point.interval == nil) else {
          throw pointNode.error("gives 'low' and 'high' where the curve's first point does not, or the other way round: give an interval on every point or on none")
        }
        if let interval = point.interval, let before = previous.interval {
          guard interval.lowerBound >= before.lowerBound else {
            throw (lowNode ?? pointNode).error("must not fall below the previous point's low \(NumberText.plain(before.lowerBound)): each end of the interval is a curve")
          }
          guard interval.upperBound >= before.upperBound else {
            throw (highNode ?? pointNode).error("must not fall below the previous point's high \(NumberText.plain(before.upperBound)): each end of the interval is a curve")
          }
        }
      }
      points.append(point)
    }
    return points
  }

  func rollout(_ node: JSONNode, releaseDay: Int, days: Int) throws(ScenarioError) -> StoreRollout {
    let object = try node.object(fields: ScenarioFields.rollout)
    var rollout = StoreRollout()
    if let phasedNode = object.optional("appStorePhasedRelease") {
      rollout.appStorePhasedRelease = try phasedRelease(phasedNode, releaseDay: releaseDay, days: days)
    }
    if let stagesNode = object.optional("googlePlayStages") {
      rollout.googlePlayStages = try stages(stagesNode, releaseDay: releaseDay, days: days)
    }
    return rollout
  }

  /// Pauses after the release day, in order, apart, of 30 days in all.
  private func phasedRelease(_ node: JSONNode, releaseDay: Int, days: Int) throws(ScenarioError) -> PhasedRelease {
    let object = try node.object(fields: ScenarioFields.phasedRelease)
    var pauses: [DayRange] = []
    for pauseNode in try object.optional("pauses")?.array(count: 0...PhasedRelease.longestPause, of: "pauses") ?? [] {
      let pause = try pauseNode.object(fields: ScenarioFields.dayRange)
      let dayNode = try pause.required("day")
      let day = try dayNode.integer()
      if let previous = pauses.last {
        guard day >= previous.day + previous.days else {
          throw dayNode.error("must follow the previous pause, which lasts to day \(previous.day + previous.days - 1)")
        }
      } else {
        guard day > releaseDay else { throw dayNode.error("must be after the release day \(releaseDay): a pause stops a release under way") }
      }
      guard day < days else { throw dayNode.error("must be a day of the run, at most \(days - 1), not \(day)") }
      let length = try pause.required("days").integer(in: 1...PhasedRelease.longestPause)
      pauses.append(DayRange(day: day, days: length))
    }
    let paused = pauses.reduce(0) { $0 + $1.days }
    guard paused <= PhasedRelease.longestPause else {
      throw node.error("pauses \(paused) days: Apple lets a phased release be paused for \(PhasedRelease.longestPause) days in all")
    }
    return PhasedRelease(pauses: pauses)
  }

  /// Stages from the release day on, in order of day, whose shares never
  /// fall (a halt aside), ending served to everyone or halted.
  private func stages(_ node: JSONNode, releaseDay: Int, days: Int) throws(ScenarioError) -> [RolloutStage] {
    var stages: [RolloutStage] = []
    for stageNode in try node.array(count: 1...ScenarioLimits.changes.upperBound, of: "stages") {
      let object = try stageNode.object(fields: ScenarioFields.rolloutStage)
      let dayNode = try object.required("day")
      let day = try dayNode.integer()
      if let previous = stages.last {
        guard day > previous.day else { throw dayNode.error("must be later than the previous stage's day \(previous.day): list stages in order") }
      } else {
        guard day >= releaseDay else { throw dayNode.error("must not be before the release day \(releaseDay)") }
      }
      guard day < days else { throw dayNode.error("must be a day of the run, at most \(days - 1), not \(day)") }
      let halt = try object.optional("halt")?.bool() ?? false
      let shareNode = object.optional("share")
      let stage: RolloutStage
      if halt {
        if let shareNode { throw shareNode.error("cannot be given with 'halt': a halted rollout serves nobody new") }
        stage = RolloutStage(day: day, share: 0)
      } else {
        guard let shareNode else {
          throw ScenarioError(path: "\(stageNode.path).share", message: "is required, e.g. {\"day\": \(day), \"share\": 0.2}, or \"halt\": true")
        }
        let share = try probability(shareNode, allowZero: false)
        let highest = stages.map(\.share).max() ?? 0
        guard share >= highest else {
          throw shareNode.error(
            "must not fall below the rollout's \(NumberText.plain(highest)): Google Play raises a staged rollout or halts it")
        }
        stage = RolloutStage(day: day, share: share)
      }
      stages.append(stage)
    }
    return stages
  }
}
