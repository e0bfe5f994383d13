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
    try createFolder(folder.path)
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

  /// Creates `path` and its missing parents, naming the first one that is in the way.
  private static func createFolder(_ path: String) throws(OutputError) {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      guard isFolder.boolValue else { throw OutputError(path: path, reason: "is a file, not a folder") }
      return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path { try createFolder(parent) }
    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
      throw OutputError(path: path, reason: "cannot be created (\(String(cString: strerror(errno))))")
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
