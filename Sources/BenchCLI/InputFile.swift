import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file named on the command line, read whole: a regular file, or a pipe
/// such as `<(jq … config.json)` (/dev/fd/N), which has no size to read up to.
///
/// Whatever the path names, the read ends: more than `limit` bytes is an
/// error (a device such as /dev/zero never ends), and a pipe, FIFO or
/// terminal on which nothing arrives for `patience` is one too (a FIFO that
/// nobody writes to would otherwise block forever, from the open on).
enum InputFile {
  /// More than any configuration, ids list or vendor file a team keeps.
  static let limit = 1 << 30
  static let patience: Duration = .seconds(30)

  static func read(_ path: String, option: String, limit: Int = InputFile.limit, patience: Duration = InputFile.patience)
    throws -> Data
  {
    // Opened without blocking, so that a FIFO without a writer is waited for below, with a limit.
    let descriptor = open(path, O_RDONLY | O_NONBLOCK)
    guard descriptor >= 0 else { throw BenchError.unreadableFile(option: option, path: path) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw BenchError.unreadableFile(option: option, path: path) }
    if status.st_mode & S_IFMT == S_IFDIR {
      throw BenchError.invalidFile(option: option, problem: "\(path) is a folder: name the file")
    }
    if status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) > limit { throw tooLarge(path, option: option, limit: limit) }
    let isFIFO = status.st_mode & S_IFMT == S_IFIFO
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let clock = ContinuousClock()
    var lastArrival = clock.now
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        data.append(contentsOf: buffer[..<count])
        if data.count > limit { throw tooLarge(path, option: option, limit: limit) }
        lastArrival = clock.now
        continue
      }
      // The end, except on a FIFO that no program has opened for writing yet, which reads as ended too.
      if count == 0, !(isFIFO && data.isEmpty) { return data }
      guard count == 0 || errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
        throw BenchError.unreadableFile(option: option, path: path)
      }
      guard clock.now - lastArrival < patience else {
        throw BenchError.invalidFile(
          option: option,
          problem: "\(path): nothing arrived in \(patience.components.seconds) s: give a file, or start the program that writes to it first")
      }
      // Nothing yet: wait a little for data or a writer.
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      // A FIFO without a writer reports a hang-up at once: pause rather than spin.
      if poll(&request, 1, 100) > 0, request.revents & Int16(POLLIN) == 0 { usleep(20_000) }
    }
  }

  private static func tooLarge(_ path: String, option: String, limit: Int) -> BenchError {
    .invalidFile(option: option, problem: "\(path) holds more than \(limit >> 20) MB, more than any such file needs: check that it is the right file")
  }
}

/// The C library's `read`, which `InputFile.read` would otherwise shadow.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
