import Foundation

/// A file named on the command line, read whole: a regular file, or a pipe
/// such as `<(jq … config.json)` (/dev/fd/N), which has no size to read up to.
enum InputFile {
  static func read(_ path: String, option: String) throws -> Data {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw BenchError.unreadableFile(option: option, path: path)
    }
    defer { try? handle.close() }
    do {
      return try handle.readToEnd() ?? Data()
    } catch {
      throw BenchError.unreadableFile(option: option, path: path)
    }
  }
}
