import ArgumentParser
import Foundation

/// What a command's output path names, asked before anything is written:
/// `bench fit --out` takes nothing yet or a regular file (its report and
/// charts go beside it), and every file output is otherwise written by
/// `StreamedFile`'s rule, which writes a device or a pipe through.
enum OutputTarget {
  static func requireFileOrNothing(_ path: String, option: String) throws {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw ValidationError("\(option) \(path) exists and is not a regular file (a folder, a link or a device): name a file to write.")
    }
  }

  /// Whether `path` is a device, a pipe or a socket, or a link to one: a
  /// target written through (`StreamedFile`).
  static func isDeviceOrPipe(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    return [S_IFCHR, S_IFIFO, S_IFSOCK].contains(status.st_mode & S_IFMT)
  }
}
