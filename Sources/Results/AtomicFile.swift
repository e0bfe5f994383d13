import Foundation

/// Writes files whole or not at all: the text goes to a temporary file in the
/// same folder, which then replaces the target in one rename, so an
/// interrupted run never leaves half a report over a good one.
public enum AtomicFile {
  public static func write(_ text: String, to url: URL) throws(OutputError) {
    try write(Data(text.utf8), to: url)
  }

  public static func write(_ data: Data, to url: URL) throws(OutputError) {
    let folder = url.deletingLastPathComponent()
    try FolderPaths.create(folder.path)
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial")
    do {
      try data.write(to: temporary)
    } catch {
      throw OutputError(path: url.path, reason: "cannot be written (\(error.localizedDescription))")
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw OutputError(path: url.path, reason: "cannot be written (\(reason))")
    }
  }
}

/// A file the bench could not write.
public struct OutputError: Error, Hashable, Sendable, CustomStringConvertible {
  public let path: String
  public let reason: String

  public var description: String {
    "\(path): \(reason); check that the folder is writable or choose another with --out"
  }
}
