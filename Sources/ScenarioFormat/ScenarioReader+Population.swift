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
    return Population(segments: segments, installs: installs)
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
    return Segment(name: name, share: share, dailyLaunchProbability: launch, attributes: attributes)
  }
}
