import Foundation

/// A one-line progress bar on standard error, drawn only when standard error
/// is a terminal, so logs and pipes get nothing extra.
struct ProgressBar {
  let total: Int
  let isDrawing: Bool

  init(total: Int, enabled: Bool) {
    self.total = max(total, 1)
    isDrawing = enabled && isatty(STDERR_FILENO) == 1
  }

  func update(_ done: Int) {
    guard isDrawing else { return }
    let width = 30
    let filled = width * min(done, total) / total
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    FileHandle.standardError.write(Data("\r[\(bar)] \(100 * min(done, total) / total)% \(done)/\(total) devices".utf8))
  }

  func finish() {
    guard isDrawing else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
  }
}
