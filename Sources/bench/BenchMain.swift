import BenchCLI
import Foundation
import _CStandardOutput

/// Runs the `bench` command.
@main
enum BenchMain {
  static func main() async {
    // Output lost to a full disk or a closed pipe must not pass for success:
    // flush every stream at exit and fail with the reason (sysexits' EX_IOERR).
    atexit {
      guard standard_output_failed() != 0 else { return }
      // A write that failed before the exit has left no errno behind.
      let reason = errno != 0 ? String(cString: strerror(errno)) : "an earlier write failed"
      FileHandle.standardError.write(Data("Error: cannot write to standard output (\(reason)).\n".utf8))
      _exit(74)
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let command = Bench.suggestedSubcommand(for: arguments, fileExists: { FileManager.default.fileExists(atPath: $0) }) {
      FileHandle.standardError.write(Data(
        "Error: \(arguments[0]): no such file or command; did you mean `bench \(command)`? (bench --help lists the commands)\n"
          .utf8))
      exit(64)
    }
    if arguments.first == "bucket" {
      // Ids as arguments go around the parser, which would take quadratic time over them.
      let (options, ids) = Bench.Bucket.separatingIDs(Array(arguments.dropFirst()))
      do {
        guard var command = try Bench.parseAsRoot(["bucket"] + options) as? Bench.Bucket else {
          // `bench bucket --help` and `--version`: the parser's own answer.
          await Bench.main(["bucket"] + options)
          return
        }
        if !ids.isEmpty { command.ids = ids }
        try command.run()
      } catch {
        Bench.exit(withError: error)
      }
      return
    }
    await Bench.main()
  }
}
