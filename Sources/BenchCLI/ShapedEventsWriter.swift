import AnalyticsTable
import Lab
import ScenarioFormat
import Simulation

/// `bench SCENARIO --events FILE --events-shape TOOL`: a batch of devices'
/// events written as the tool exports them (`ExportWriter`), on the thread
/// that simulates the batch: a session event at each launch with the app
/// version and platform, an exposure when the app first displays a variant
/// (what the Lab table's `displayed` rows say; a `screen_view` carrying the
/// experiment for a tool that keeps experiments as user properties), and each
/// metric's outcome as
/// an event of its name after the device's last launch (a conversion once, an
/// amount with its `value`). docs/world.md says how the times are laid out.
struct ShapedEventsWriter: DeviceObserver, Sendable {
  static var isObserving: Bool { true }

  private let writer: ExportWriter
  private var log: EventLog
  /// Per segment, its `platform` attribute.
  private let platforms: [String?]
  private let metrics: [(name: String, isConversion: Bool)]
  /// Day 0's midnight, in nanoseconds since 1970.
  private let start: Int64
  /// The batch's lines so far, in device order, and how many.
  private(set) var bytes: [UInt8] = []
  private(set) var rowCount = 0

  // The device.
  private var unit = ""
  private var platform: String?
  private var day = -1, launchesOfDay = 0, lastTime: Int64 = 0, version = ""
  private var shown: [(experiment: String, variant: String)] = []

  /// Nanoseconds in a day, and the first launch of a day: 08:00, then one
  /// launch every 40 minutes (at most 16 a day, so all before midnight).
  private static let day: Int64 = 86_400_000_000_000
  private static let firstLaunch: Int64 = 8 * 3_600_000_000_000
  private static let betweenLaunches: Int64 = 40 * 60_000_000_000
  /// The event that carries a new experiment's user property: Google
  /// Analytics' automatic screen view.
  private static let screenView = "screen_view"

  init(plan: SimulationPlan, mapping: ExportMapping, startDay: Int) {
    writer = ExportWriter(mapping: mapping)
    log = EventLog(plan: plan)
    platforms = plan.scenario.population.segments.map { $0.attributes["platform"] }
    metrics = plan.scenario.metrics.map { ($0.name, $0.kind == .conversion) }
    start = Int64(startDay) * Self.day
  }

  mutating func started(device: Int, token: ActiveExperimentsToken, segment: Int, installDay: Int?, upgradeDays: [Double?]) {
    log.started(device: device, token: token, segment: segment, installDay: installDay, upgradeDays: upgradeDays)
    unit = "device-\(device)"
    platform = platforms[segment]
    day = -1
    shown.removeAll()
  }

  mutating func launched(_ launch: LaunchRecord) {
    if launch.day != day {
      day = launch.day
      launchesOfDay = 0
    }
    lastTime = start + Int64(day) * Self.day + Self.firstLaunch + Int64(launchesOfDay) * Self.betweenLaunches
    launchesOfDay += 1
    version = log.versionNames[launch.version]
    if let session = writer.mapping.sessionEvent {
      append(ExportWriter.Event(
        name: session, unit: unit, time: lastTime, appVersion: version, platform: platform, userExperiments: shown))
    }
    let before = log.records.count
    log.launched(launch)
    for record in log.records[before...] {
      let event = log.event(record.event)
      guard event.reason == .displayed else { continue }
      let exposure = (event.assignment.experiment, event.assignment.variant)
      // A tool that keeps experiments as user properties (Firebase) has no
      // exposure event: the screen's view carries the new property.
      let name: String
      switch writer.mapping.exposure {
      case .event(let names, _, _, _): name = names[0]
      case .userProperties: name = Self.screenView
      }
      append(ExportWriter.Event(
        name: name, unit: unit, time: lastTime + 1_000_000_000, appVersion: version, platform: platform,
        exposure: exposure, userExperiments: shown))
      shown.append(exposure)
    }
  }

  mutating func finished(outcomes values: [Double]) {
    log.finished(outcomes: values)
    for ((name, isConversion), value) in zip(metrics, values) where value > 0 {
      append(ExportWriter.Event(
        name: name, unit: unit, time: lastTime + 2_000_000_000, appVersion: version, platform: platform,
        userExperiments: shown, properties: isConversion ? [] : [("value", value)]))
    }
    log.removeAll()
  }

  private mutating func append(_ event: ExportWriter.Event) {
    bytes += writer.line(event)
    rowCount += 1
  }
}
