import BenchCLI
import Foundation

/// Runs the `bench` command.
@main
enum BenchMain {
  static func main() async {
    // Output lost to a full disk or a closed pipe must not pass for success:
    // flush every stream at exit and fail with the reason (sysexits' EX_IOERR).
    atexit {
      guard fflush(nil) != 0 else { return }
      let reason = String(cString: strerror(errno))
      FileHandle.standardError.write(Data("Error: cannot write to standard output (\(reason)).\n".utf8))
      _exit(74)
    }
    await Bench.main()
  }
}
