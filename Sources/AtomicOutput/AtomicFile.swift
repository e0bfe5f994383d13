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
public struct StreamedFile: ~Copyable {
  public let url: URL
  private let temporary: URL
  private let handle: FileHandle

  public init(url: URL) throws(OutputError) {
    let folder = url.deletingLastPathComponent()
    try FolderPaths.create(folder.path)
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial")
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
      let handle = FileHandle(forWritingAtPath: temporary.path)
    else { throw OutputError(path: url.path, reason: "cannot be written (\(String(cString: strerror(errno))))") }
    self.url = url
    self.temporary = temporary
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

  /// Flushes the file and puts it in the target's place.
  public consuming func commit() throws(OutputError) {
    do {
      try handle.synchronize()
      try handle.close()
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw OutputError(path: url.path, reason: "cannot be written (\(error.localizedDescription))")
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw OutputError(path: url.path, reason: "cannot be written (\(reason))")
    }
  }

  /// Removes the temporary file, leaving the target as it was.
  public consuming func discard() {
    try? handle.close()
    try? FileManager.default.removeItem(at: temporary)
  }
}
