import Foundation

/// Writes files whole or not at all: the text goes to a temporary file in the
/// same folder, which then replaces the target in one rename, so an
/// interrupted run never leaves half a report over a good one.
public enum AtomicFile {
  public static func write(_ text: String, to url: URL) throws(OutputError) {
    try write(Data(text.utf8), to: url)
  }

  public static func write(_ data: Data, to url: URL) throws(OutputError) {
    var file = try StreamedFile(url: url)
    do {
      try file.write(data)
    } catch {
      file.discard()
      throw error
    }
    try file.commit()
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

/// A file written a piece at a time and put in place whole: the pieces go to
/// a temporary file beside the target, which replaces it in one rename when
/// the last piece is written, so a large table needs no more memory than a
/// piece and a failed run leaves the previous file.
///
/// What the target is decides how (README.md, "Where the bench writes"):
/// nothing yet or a regular file is replaced whole; a link to a regular file
/// keeps the link, and the file it names is replaced whole; a device or a
/// pipe (`/dev/null`, `/dev/stdout`) is written through as the pieces come,
/// as it cannot be replaced; a folder, or a link that names nothing or a
/// folder, is refused. A rename never puts a regular file where a device or a
/// link was.
public struct StreamedFile: ~Copyable {
  public let url: URL
  /// The temporary file renamed over `replaced` at commit; nil when the
  /// target is written through.
  private let temporary: URL?
  private let replaced: URL
  private let handle: FileHandle

  public init(url: URL) throws(OutputError) {
    var target = url
    var status = stat()
    if lstat(url.path, &status) == 0 {
      let kind = status.st_mode & S_IFMT
      if kind == S_IFLNK {
        guard stat(url.path, &status) == 0 else {
          throw OutputError(path: url.path, reason: "is a link to nothing that exists; name a file to write, or remove the link")
        }
      }
      switch status.st_mode & S_IFMT {
      case S_IFREG:
        if kind == S_IFLNK {
          guard let resolved = realpath(url.path, nil) else {
            throw OutputError(path: url.path, reason: "is a link that cannot be followed (\(String(cString: strerror(errno))))")
          }
          target = URL(fileURLWithPath: String(cString: resolved))
          free(resolved)
        }
      case S_IFCHR, S_IFIFO, S_IFSOCK:
        guard let handle = FileHandle(forWritingAtPath: url.path) else {
          throw OutputError(path: url.path, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        self.url = url
        temporary = nil
        replaced = url
        self.handle = handle
        return
      case S_IFDIR:
        throw OutputError(path: url.path, reason: "is a folder; name a file to write")
      default:
        throw OutputError(path: url.path, reason: "is neither a file nor a device; name a file to write")
      }
    }
    let folder = target.deletingLastPathComponent()
    try FolderPaths.create(folder.path)
    let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(getpid()).partial")
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
      let handle = FileHandle(forWritingAtPath: temporary.path)
    else { throw OutputError(path: url.path, reason: "cannot be written (\(String(cString: strerror(errno))))") }
    self.url = url
    self.temporary = temporary
    replaced = target
    self.handle = handle
  }

  public mutating func write(_ text: String) throws(OutputError) {
    try write(Data(text.utf8))
  }

  public mutating func write(_ data: Data) throws(OutputError) {
    try write(bytes: data)
  }

  public mutating func write(_ bytes: [UInt8]) throws(OutputError) {
    try write(bytes: bytes)
  }

  private mutating func write(bytes: some DataProtocol) throws(OutputError) {
    do {
      try handle.write(contentsOf: bytes)
    } catch {
      throw OutputError(path: url.path, reason: "cannot be written (\(error.localizedDescription))")
    }
  }

  /// Flushes the file and puts it in the target's place; a device or a pipe
  /// written through is only closed.
  public consuming func commit() throws(OutputError) {
    guard let temporary else {
      try? handle.close()
      return
    }
    do {
      try handle.synchronize()
      try handle.close()
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw OutputError(path: url.path, reason: "cannot be written (\(error.localizedDescription))")
    }
    guard rename(temporary.path, replaced.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw OutputError(path: url.path, reason: "cannot be written (\(reason))")
    }
  }

  /// Removes the temporary file, leaving the target as it was.
  public consuming func discard() {
    try? handle.close()
    if let temporary { try? FileManager.default.removeItem(at: temporary) }
  }
}
