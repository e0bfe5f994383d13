import Foundation

/// `bench-fuzz TARGET [FILE...]`: feeds each file to a fuzz target, the
/// regression check for inputs the fuzzer once crashed on. Built by `make
/// fuzz` with `-sanitize=fuzzer -D FUZZING`, it hands its arguments after
/// TARGET to libFuzzer instead (corpus folders, `-max_total_time=60`, …).
@main
enum BenchFuzzMain {
  static func main() {
    let arguments = CommandLine.arguments
    guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
      let names = FuzzTarget.allCases.map(\.rawValue)
      let targets = names.dropLast().joined(separator: ", ") + " or " + names.last!
      FileHandle.standardError.write(Data("usage: bench-fuzz \(targets) [FILE...]\n".utf8))
      exit(64)
    }
    #if FUZZING
      LibFuzzer.run(target, arguments: [arguments[0]] + arguments.dropFirst(2))
    #else
      for path in arguments.dropFirst(2) {
        guard let input = FileManager.default.contents(atPath: path) else {
          FileHandle.standardError.write(Data("bench-fuzz: cannot read \(path)\n".utf8))
          exit(66)
        }
        target.run(input)
      }
    #endif
  }
}
