import _CFolderSwap
import Foundation

/// A report folder written as one unit: every file goes to a hidden staging
/// folder beside the target, is flushed to disk, and the staging folder then
/// takes the target's place in one atomic exchange. A run killed at any
/// moment leaves the previous run's folder or this one's, never a mix, and
/// the next run into the same folder removes what an interrupted one left.
///
/// A lock file beside the target serializes runs into the same folder: each
/// lands whole, the last to finish last. The kernel releases the lock when
/// its process ends, however it ends; a finished run removes the file. The
/// folder is replaced whole: files put into it by hand do not survive the
/// next run.
public struct StagedFolder: ~Copyable {
  /// The folder the run's files end up in.
  public let target: URL
  /// Where the files are written until `commit()`.
  public let staging: URL
  private let lock: CInt
  private let lockPath: String
  private var faults: FaultInjection

  /// Takes the folder's lock, removes an interrupted run's leftovers and
  /// creates an empty staging folder.
  public init(target: URL) throws(OutputError) {
    let parent = target.deletingLastPathComponent()
    try FolderPaths.create(parent.path)
    var faults = FaultInjection()
    let lockPath = parent.appendingPathComponent(".\(target.lastPathComponent).lock").path
    let lock = try Self.takeLock(at: lockPath, folder: target.path)
    let prefix = ".\(target.lastPathComponent).staging-"
    let staging = parent.appendingPathComponent(prefix + String(getpid()))
    do {
      for leftover in try FileManager.default.contentsOfDirectory(atPath: parent.path) where leftover.hasPrefix(prefix) {
        faults.step()
        try FileManager.default.removeItem(at: parent.appendingPathComponent(leftover))
      }
      faults.step()
      try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
    } catch {
      unlink(lockPath)
      close(lock)
      throw OutputError(path: target.path, reason: "cannot be prepared (\(error.localizedDescription))")
    }
    self.target = target
    self.staging = staging
    self.lock = lock
    self.lockPath = lockPath
    self.faults = faults
  }

  /// Writes `data` to `relativePath` inside the staging folder, creating its
  /// subfolders, and flushes it to disk. A path that could leave the folder
  /// (absolute, empty, or with a "." or ".." component) is refused: names
  /// reach these paths from data.
  public mutating func write(_ data: Data, to relativePath: String) throws(OutputError) {
    let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
    guard !relativePath.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
      throw OutputError(path: target.path, reason: "would receive '\(relativePath)', which is not a file inside it")
    }
    let url = staging.appendingPathComponent(relativePath)
    try FolderPaths.create(url.deletingLastPathComponent().path)
    faults.step()
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw Self.failure(target, "cannot be written") }
    let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    do {
      try file.write(contentsOf: data)
      try file.synchronize()
    } catch {
      throw OutputError(path: target.path, reason: "cannot be written (\(error.localizedDescription))")
    }
  }

  public mutating func write(_ text: String, to relativePath: String) throws(OutputError) {
    try write(Data(text.utf8), to: relativePath)
  }

  /// Puts the staging folder in the target's place in one step and removes
  /// the previous run's folder; on a failure the target stays as it was.
  public consuming func commit() throws(OutputError) {
    defer { releaseLock() }
    do {
      try swapIn()
    } catch {
      try? FileManager.default.removeItem(at: staging)
      throw error
    }
  }

  private mutating func swapIn() throws(OutputError) {
    try FolderPaths.synchronize(staging)
    faults.step()
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder) {
      guard isFolder.boolValue else { throw OutputError(path: target.path, reason: "is a file, not a folder") }
      guard folder_swap(staging.path, target.path) == 0 else { throw Self.failure(target, "cannot be replaced") }
      // The staging name now holds the previous run, which no longer matters if the flush fails.
      try? FolderPaths.synchronize(target.deletingLastPathComponent())
      faults.step()
      try? FileManager.default.removeItem(at: staging)
    } else {
      guard rename(staging.path, target.path) == 0 else { throw Self.failure(target, "cannot be created") }
      try? FolderPaths.synchronize(target.deletingLastPathComponent())
    }
  }

  /// Removes the staging folder after a failure, leaving the target as it was.
  public consuming func discard() {
    try? FileManager.default.removeItem(at: staging)
    releaseLock()
  }

  /// Waits for the folder's lock: writing a folder takes milliseconds, so a
  /// second run waits for the first and lands whole after it. The holder
  /// removes the lock file when it is done, so a waiter that wakes on a
  /// removed file tries again on the new one.
  private static func takeLock(at path: String, folder: String) throws(OutputError) -> CInt {
    while true {
      let descriptor = open(path, O_RDWR | O_CREAT, 0o644)
      guard descriptor >= 0 else { throw failure(URL(fileURLWithPath: folder), "cannot be locked") }
      while flock(descriptor, LOCK_EX) != 0 {
        guard errno == EINTR else {
          close(descriptor)
          throw failure(URL(fileURLWithPath: folder), "cannot be locked")
        }
      }
      var held = stat(), current = stat()
      if fstat(descriptor, &held) == 0, stat(path, &current) == 0, held.st_ino == current.st_ino, held.st_dev == current.st_dev {
        return descriptor
      }
      close(descriptor)
    }
  }

  /// Removes the lock file, then releases the lock.
  private func releaseLock() {
    unlink(lockPath)
    close(lock)
  }

  private static func failure(_ target: URL, _ what: String) -> OutputError {
    OutputError(path: target.path, reason: "\(what) (\(String(cString: strerror(errno))))")
  }
}

/// Folder chores of a staged write.
enum FolderPaths {
  /// Creates `path` and its missing parents, naming the first one in the way.
  static func create(_ path: String) throws(OutputError) {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      guard isFolder.boolValue else { throw OutputError(path: path, reason: "is a file, not a folder") }
      return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path { try create(parent) }
    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
      throw OutputError(path: path, reason: "cannot be created (\(String(cString: strerror(errno))))")
    }
  }

  /// Flushes a folder's entries, and those of its subfolders, to disk, so that
  /// a rename that follows cannot reach the disk before the names it moves.
  static func synchronize(_ folder: URL) throws(OutputError) {
    let subfolders = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey]))?
      .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true } ?? []
    for subfolder in subfolders { try synchronize(subfolder) }
    let descriptor = open(folder.path, O_RDONLY)
    guard descriptor >= 0 else { throw OutputError(path: folder.path, reason: "cannot be opened to flush it") }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
      throw OutputError(path: folder.path, reason: "cannot be flushed (\(String(cString: strerror(errno))))")
    }
  }
}

/// Kills the process at a chosen file-system step of a staged write, for the
/// test that checks a report folder is whole after a kill at every step:
/// `BENCH_KILL_AT_STEP=N` sends SIGKILL to the process just before step N
/// (counting from 1). Unset, it does nothing.
struct FaultInjection {
  private let killAt: Int?
  private var steps = 0

  init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    killAt = environment["BENCH_KILL_AT_STEP"].flatMap { Int($0) }
  }

  mutating func step() {
    steps += 1
    if steps == killAt { kill(getpid(), SIGKILL) }
  }
}
