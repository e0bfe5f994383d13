import Foundation
import Report

/// A run's progress on standard error. On a terminal, a one-line bar that
/// fits its width, so it never wraps, and says how fast the run goes and when
/// it will end. Elsewhere (a CI log, a file, a pipe) a run that lasts gets a
/// line of the same figures every `logInterval`, the first after one, so a
/// short run's output holds nothing extra and a long one's says it is alive.
struct ProgressBar {
  let total: Int
  let isDrawing: Bool
  /// Whether the progress goes to a log as lines (`enabled`, and standard
  /// error not a terminal).
  let isLogging: Bool
  /// With several replications, the devices of one, to say which is running.
  let devicesPerReplication: Int?
  private let start = ContinuousClock.now
  /// When the last line was logged; a reference, so that `update` stays a
  /// plain call in the simulation's progress closures.
  private let lastLogged = LogClock()

  /// How often a log gets a line: often enough to see a run move, seldom
  /// enough that an hour's run writes a page; `BENCH_PROGRESS_SECONDS`
  /// sets another (0: at every batch).
  let logInterval: Duration

  /// The interval `environment` sets, or 10 seconds.
  static func logInterval(environment: [String: String]) -> Duration {
    guard let text = environment["BENCH_PROGRESS_SECONDS"], let seconds = Double(text), seconds.isFinite, seconds >= 0
    else { return .seconds(10) }
    return .milliseconds(Int64(min(seconds, 86_400) * 1_000))
  }

  private final class LogClock {
    var time = ContinuousClock.now
  }

  /// The bar of `replications` replications of `devices` devices, which names the replication under way.
  init(devices: Int, replications: Int, enabled: Bool) {
    self.init(total: devices * replications, enabled: enabled, devicesPerReplication: devices)
  }

  init(total: Int, enabled: Bool, devicesPerReplication: Int? = nil) {
    self.total = max(total, 1)
    self.devicesPerReplication = devicesPerReplication.flatMap { $0 > 0 && $0 < total ? $0 : nil }
    isDrawing = enabled && isatty(STDERR_FILENO) == 1
    isLogging = enabled && !isDrawing
    logInterval = Self.logInterval(environment: ProcessInfo.processInfo.environment)
  }

  func update(_ done: Int) {
    guard isDrawing || isLogging else { return }
    let now = ContinuousClock.now, elapsed = now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    if isLogging {
      guard now - lastLogged.time >= logInterval else { return }
      lastLogged.time = now
      let line = Self.logLine(done: done, total: total, seconds: seconds, devicesPerReplication: devicesPerReplication)
      FileHandle.standardError.write(Data((line + "\n").utf8))
      return
    }
    let line = Self.line(
      done: done, total: total, seconds: seconds, width: Self.terminalWidth(), devicesPerReplication: devicesPerReplication)
    FileHandle.standardError.write(Data("\r\(line)\u{1B}[K".utf8))
  }

  func finish() {
    guard isDrawing else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
  }

  /// The line for `done` of `total` devices after `seconds`, at most
  /// `width - 1` characters: the bar narrows first, then the counts, the
  /// replication and the rate give way, and the percentage stays.
  static func line(done: Int, total: Int, seconds: Double, width: Int, devicesPerReplication: Int? = nil) -> String {
    let done = min(max(done, 0), total)
    let (percent, counts, replication, speed, eta) = figures(
      done: done, total: total, seconds: seconds, devicesPerReplication: devicesPerReplication)
    let candidates: [[String?]] = [
      [percent, counts, replication, speed, eta],
      [percent, replication, speed, eta],
      [percent, replication, eta],
      [percent, eta],
      [percent],
    ]
    let limit = max(width - 1, 1)
    for parts in candidates {
      let text = parts.compactMap { $0 }.joined(separator: " · ")
      for barWidth in stride(from: 30, through: 10, by: -5) where barWidth + 3 + text.count <= limit {
        let filled = barWidth * done / total
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "] " + text
      }
      if text.count <= limit && parts.count == 1 { return text }
    }
    return String(percent.prefix(limit))
  }

  /// A log's line for `done` of `total` devices after `seconds`: every
  /// figure of the bar, without the bar.
  static func logLine(done: Int, total: Int, seconds: Double, devicesPerReplication: Int? = nil) -> String {
    let (percent, counts, replication, speed, eta) = figures(
      done: min(max(done, 0), total), total: total, seconds: seconds, devicesPerReplication: devicesPerReplication)
    return "progress: " + [percent, counts, replication, speed, eta].compactMap { $0 }.joined(separator: " · ")
  }

  /// The figures of a line: the share done, the counts, the replication under
  /// way, the rate and the time left (the last two once the run has moved).
  private static func figures(
    done: Int, total: Int, seconds: Double, devicesPerReplication: Int?
  ) -> (percent: String, counts: String, replication: String?, speed: String?, eta: String?) {
    let rate = seconds > 0 && done > 0 ? Double(done) / seconds : nil
    let replication = devicesPerReplication.map { size in
      "replication \(NumberFormat.count(min(done / size + 1, (total + size - 1) / size)))/\(NumberFormat.count((total + size - 1) / size))"
    }
    return (
      "\(100 * done / total)%", "\(NumberFormat.count(done))/\(NumberFormat.count(total)) devices", replication,
      rate.map { "\(NumberFormat.count(Int($0.rounded())))/s" }, rate.map { "ETA \(duration(Double(total - done) / $0))" }
    )
  }

  /// 45s, 3m05s, 2h07m
  static func duration(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "–" }
    let whole = Int(seconds.rounded(.up))
    if whole < 60 { return "\(whole)s" }
    if whole < 3_600 { return "\(whole / 60)m" + String(format: "%02ds", whole % 60) }
    return "\(whole / 3_600)h" + String(format: "%02dm", whole / 60 % 60)
  }

  /// Standard error's terminal width, or 80 when it cannot be read.
  private static func terminalWidth() -> Int {
    var size = winsize()
    guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }
}
