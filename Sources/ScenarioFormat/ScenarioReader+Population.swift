/// The population: its segments, and when its devices install the app.
extension ScenarioReader {
  func population(_ node: JSONNode, days: Int) throws(ScenarioError) -> Population {
    let object = try node.object(fields: ScenarioFields.population)
    let segmentsNode = try object.required("segments")
    let segmentNodes = try segmentsNode.array(count: ScenarioLimits.segments, of: "segments")
    var segments: [Segment] = []
    for segmentNode in segmentNodes {
      let segment = try self.segment(segmentNode)
      guard !segments.contains(where: { $0.name == segment.name }) else {
        throw ScenarioError(path: "\(segmentNode.path).name", message: "'\(segment.name)' is used by another segment")
      }
      segments.append(segment)
    }
    let total = segments.reduce(0) { $0 + $1.share }
    guard abs(total - 1) <= 1e-9 else {
      throw segmentsNode.error("shares must sum to 1, not \(total)")
    }
    let installs = try object.optional("installs").map { node throws(ScenarioError) in
      try self.installs(node, days: days)
    }
    var population = Population(segments: segments, installs: installs)
    if let factorsNode = object.optional("weekdayFactors") {
      let factors = try factorsNode.array(count: 7...7, of: "factors, Monday to Sunday").map { node throws(ScenarioError) in
        try node.double(in: ScenarioLimits.weekdayFactor)
      }
      guard factors.contains(where: { $0 > 0 }) else { throw factorsNode.error("must let devices launch on some weekday") }
      population.weekdayFactors = factors
    }
    if let weekdayNode = object.optional("firstWeekday") {
      let text = try weekdayNode.string()
      guard let weekday = Weekday(rawValue: text.lowercased()) else {
        throw weekdayNode.error("must be a day of the week, e.g. \"monday\", not '\(text)'")
      }
      population.firstWeekday = weekday
    }
    return population
  }

  private func installs(_ node: JSONNode, days: Int) throws(ScenarioError) -> InstallSchedule {
    let object = try node.object(fields: ScenarioFields.installs)
    func count(_ field: String, in object: JSONObject) throws(ScenarioError) -> Double {
      try object.optional(field)?.double(in: ScenarioLimits.installCount) ?? 0
    }
    var campaigns: [InstallSchedule.Campaign] = []
    for campaignNode in try object.optional("campaigns")?.array(count: ScenarioLimits.changes, of: "campaigns") ?? [] {
      let campaign = try campaignNode.object(fields: ScenarioFields.campaign)
      let dayNode = try campaign.required("day")
      let day = try dayNode.integer(in: 0...(days - 1))
      let length = try campaign.required("days").integer(in: 1...ScenarioLimits.days.upperBound)
      guard day + length <= days else {
        throw try campaign.required("days").error(
          "must end by the run's last day: the campaign starts on day \(day) of a run of \(days) days, so at most \(days - day)")
      }
      let daily = try campaign.required("daily").double(in: ScenarioLimits.installCount)
      campaigns.append(InstallSchedule.Campaign(day: day, days: length, daily: daily))
    }
    let schedule = InstallSchedule(
      existing: try count("existing", in: object), daily: try count("daily", in: object), campaigns: campaigns)
    guard schedule.newDevices(days: days).reduce(schedule.existing, +) > 0 else {
      throw node.error("installs no device: give 'existing' (devices installed before day 0) or 'daily', e.g. {\"existing\": 50000, \"daily\": 800}")
    }
    return schedule
  }

  private func segment(_ node: JSONNode) throws(ScenarioError) -> Segment {
    let object = try node.object(fields: ScenarioFields.segment)
    let name = try object.required("name").string()
    let share = try probability(object.required("share"), allowZero: false)
    let launch = try object.optional("dailyLaunchProbability").map { node throws(ScenarioError) in
      try probability(node, allowZero: false)
    } ?? 1
    var attributes: [String: String] = [:]
    for (attribute, value) in try object.optional("attributes")?.members() ?? [] {
      attributes[attribute] = try value.string()
    }
    var segment = Segment(name: name, share: share, dailyLaunchProbability: launch, attributes: attributes)
    if let activityNode = object.optional("activity") {
      if let launchNode = object.optional("dailyLaunchProbability") {
        throw launchNode.error("cannot be given with 'activity': the distribution's mean is the segment's daily probability")
      }
      let distribution = try activityNode.object(fields: ScenarioFields.activity)
      let meanNode = try distribution.required("mean")
      let mean = try meanNode.double()
      guard mean > 0, mean < 1 else { throw meanNode.error("must lie strictly between 0 and 1") }
      let concentrationNode = try distribution.required("concentration")
      let beta = BetaDistribution(mean: mean, concentration: try concentrationNode.double(in: ScenarioLimits.concentration))
      guard min(beta.alpha, beta.beta) >= ScenarioLimits.gammaShape.lowerBound else {
        throw concentrationNode.error(
          "is too small for a mean of \(NumberText.plain(mean)): mean × concentration and (1 − mean) × concentration must be at least 0.01")
      }
      segment.activity.probability = beta
      segment.dailyLaunchProbability = mean
    }
    if let launchesNode = object.optional("launchesPerActiveDay") {
      segment.activity.launchesPerActiveDay = try launchesNode.double(in: ScenarioLimits.launchesPerActiveDay)
    }
    if let hazardNode = object.optional("inactivityHazard") {
      let hazard = try hazardNode.double()
      guard hazard >= 0, hazard < 1 else { throw hazardNode.error("must lie between 0 and 1, 1 excluded: a device stops on a day with this chance") }
      segment.activity.inactivityHazard = hazard
    }
    if let hazardNode = object.optional("firstWeekInactivityHazard") {
      let hazard = try hazardNode.double()
      guard hazard >= 0, hazard < 1 else {
        throw hazardNode.error("must lie between 0 and 1, 1 excluded: a new device stops on a day of its first week with this chance")
      }
      segment.activity.firstWeekInactivityHazard = hazard
    }
    return segment
  }
}
