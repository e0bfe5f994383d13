import Foundation
import Report

/// A one-line progress bar on standard error, drawn only when standard error
/// is a terminal, so logs and pipes get nothing extra. The line fits the
/// terminal's width, so it never wraps, and says how fast the run goes and
/// when it will end.
struct ProgressBar {
  let total: Int
  let isDrawing: Bool
  /// With several replications, the devices of one, to say which is running.
  let devicesPerReplication: Int?
  private let start = ContinuousClock.now

  /// The bar of `replications` replications of `devices` devices, which names the replication under way.
  init(devices: Int, replications: Int, enabled: Bool) {
    self.init(total: devices * replications, enabled: enabled, devicesPerReplication: devices)
  }

  init(total: Int, enabled: Bool, devicesPerReplication: Int? = nil) {
    self.total = max(total, 1)
    self.devicesPerReplication = devicesPerReplication.flatMap { $0 > 0 && $0 < total ? $0 : nil }
    isDrawing = enabled && isatty(STDERR_FILENO) == 1
  }

  func update(_ done: Int) {
    guard isDrawing else { return }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
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
    let percent = "\(100 * done / total)%"
    let counts = "\(NumberFormat.count(done))/\(NumberFormat.count(total)) devices"
    let rate = seconds > 0 && done > 0 ? Double(done) / seconds : nil
    let speed = rate.map { "\(NumberFormat.count(Int($0.rounded())))/s" }
    let eta = rate.map { "ETA \(duration(Double(total - done) / $0))" }
    let replication = devicesPerReplication.map { size in
      "replication \(NumberFormat.count(min(done / size + 1, (total + size - 1) / size)))/\(NumberFormat.count((total + size - 1) / size))"
    }
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
