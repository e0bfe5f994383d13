import Foundation
import Results
import ScenarioFormat

extension FittedWorld {
  /// The fitted world as a scenario file's JSON: versions with their release
  /// days and adoption curves, a segment per platform, the installs and the
  /// weekdays; no experiments and no metrics. Numbers are rounded to four
  /// significant digits, as the fit knows them at best.
  public func scenario(name: String, source: String) -> OrderedJSON {
    var segmentsJSON: [OrderedJSON] = []
    for segment in segments {
      var members: [(String, OrderedJSON)] = [
        ("name", .string(Self.segmentName(segment.observed.name, among: segments.map(\.observed.name)))),
        ("share", .number(Self.rounded(segment.share))),
        ("activity", .object([
          ("mean", .number(Self.rounded(segment.activity.mean))),
          ("concentration", .number(Self.rounded(segment.activity.concentration))),
        ])),
      ]
      if segment.sessionsPerActiveDay > 1.005 {
        members.append(("launchesPerActiveDay", .number(Self.rounded(min(segment.sessionsPerActiveDay, 6)))))
      }
      if segment.activity.hazard >= 1e-4 { members.append(("inactivityHazard", .number(Self.rounded(segment.activity.hazard)))) }
      // The first week's hazard where the fit followed new devices and it differs.
      if segment.observed.lastNewCohortDay >= 1, abs(segment.activity.firstWeekHazard - segment.activity.hazard) >= 1e-4 {
        members.append(("firstWeekInactivityHazard", .number(Self.rounded(segment.activity.firstWeekHazard))))
      }
      if !["everyone", "other"].contains(segment.observed.name) {
        members.append(("attributes", .object([("platform", .string(segment.observed.name))])))
      }
      segmentsJSON.append(.object(members))
    }
    // The shares are rounded: the largest segment's, first, takes what makes them sum to 1.
    if case .object(var largest)? = segmentsJSON.first {
      let others = segments.dropFirst().reduce(0) { $0 + Self.rounded($1.share) }
      largest[1] = ("share", segmentsJSON.count == 1 ? .integer(1) : .number(1 - others))
      segmentsJSON[0] = .object(largest)
    }
    var installs: [(String, OrderedJSON)] = [
      ("existing", .number(Self.rounded(self.installs.existing))), ("daily", .number(Self.rounded(self.installs.daily))),
    ]
    if !self.installs.campaigns.isEmpty {
      installs.append(("campaigns", .array(self.installs.campaigns.map { campaign in
        .object([("day", .integer(campaign.day)), ("days", .integer(campaign.days)), ("daily", .number(Self.rounded(campaign.daily)))])
      })))
    }
    var population: [(String, OrderedJSON)] = [("segments", .array(segmentsJSON)), ("installs", .object(installs))]
    if let weekdayFactors {
      population.append(("weekdayFactors", .array(weekdayFactors.map { .number(Self.rounded($0)) })))
      population.append(("firstWeekday", .string(firstWeekday.rawValue)))
    }
    let releases = self.releases.isEmpty ? [Release(version: "1.0", releaseDay: 0, curve: [])] : self.releases
    let versions: [OrderedJSON] = releases.enumerated().map { index, release in
      var members: [(String, OrderedJSON)] = [("version", .string(release.version)), ("releaseDay", .integer(release.releaseDay))]
      if index > 0 {
        let points = release.curve.isEmpty ? [AdoptionPoint(day: 1, share: 0)] : release.curve
        members.append(("adoption", .object([("curve", .array(points.map { point in
          var members: [(String, OrderedJSON)] = [("day", .number(point.day)), ("share", .number(Self.rounded(point.share)))]
          if let interval = point.interval {
            members += [("low", .number(Self.rounded(interval.lowerBound))), ("high", .number(Self.rounded(interval.upperBound)))]
          }
          return .object(members)
        }))])))
        if !release.playStages.isEmpty {
          members.append(("rollout", .object([("googlePlayStages", .array(release.playStages.map { stage in
            .object([("day", .integer(stage.day)), ("share", .number(Self.rounded(stage.share)))])
          }))])))
        }
      }
      return .object(members)
    }
    let devices = installs.isEmpty ? 1 : max(1, Int(totalDevices.rounded()))
    let segmentNames = segments.map { Self.segmentName($0.observed.name, among: segments.map(\.observed.name)) }
    let metricsJSON: [OrderedJSON] = metrics.map { metric in
      // An amount's mean must be positive: a segment without any is written as the smallest a scenario takes.
      func value(_ baseline: Double) -> OrderedJSON {
        .number(metric.isConversion ? Self.rounded(baseline) : max(Self.rounded(baseline), Metric.acceptedMeans.lowerBound))
      }
      var members: [(String, OrderedJSON)] = [
        ("name", .string(metric.name)), ("kind", .string(metric.isConversion ? "conversion" : "continuous")),
      ]
      if let shape = metric.shape { members += [("distribution", .string("gamma")), ("shape", .number(Self.rounded(shape)))] }
      members.append(("baseline", value(metric.baseline)))
      if segments.count > 1 {
        members.append(("segmentBaselines", .object(zip(segmentNames, metric.segmentBaselines).map { ($0, value($1)) })))
      }
      return .object(members)
    }
    return .object([
      ("name", .string(name)),
      ("description", .string(
        "The world fitted by bench fit from \(source): \(segments.count) segment\(segments.count == 1 ? "" : "s"), "
          + "\(releases.count) version\(releases.count == 1 ? "" : "s") over \(days) days. Add experiments and metrics to run a plan in it.")),
      ("seed", .integer(1)),
      ("devices", .integer(min(devices, ScenarioLimits.devices.upperBound))),
      ("days", .integer(days)),
      ("population", .object(population)),
      ("versions", .array(versions)),
    ] + (metricsJSON.isEmpty ? [] : [("metrics", .array(metricsJSON))]))
  }

  /// The devices of the fitted schedule: before day 0 and new over the run.
  public var totalDevices: Double {
    installs.newDevices(days: days).reduce(installs.existing, +)
  }

  /// Four significant digits.
  static func rounded(_ value: Double) -> Double {
    guard value != 0, value.isFinite else { return 0 }
    let scale = pow(10, 3 - floor(log10(abs(value))))
    return (value * scale).rounded() / scale
  }

  /// A platform as a segment's name: letters and digits, lowercased, unique.
  static func segmentName(_ platform: String, among all: [String]) -> String {
    let base = String(platform.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }
      .map(Character.init))
    let name = base.isEmpty ? "platform" : base
    let clashes = all.filter { other in
      String(other.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(Character.init)) == base
    }
    guard clashes.count > 1, let index = clashes.firstIndex(of: platform) else { return name }
    return "\(name)\(index + 1)"
  }
}
