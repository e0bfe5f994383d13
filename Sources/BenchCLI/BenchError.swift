/// What goes wrong while a command runs, past its arguments' checks: one line
/// naming the option and the fix, exit status 1.
enum BenchError: Error, CustomStringConvertible {
  case unreadableFile(option: String, path: String)
  case invalidFile(option: String, problem: String)

  var description: String {
    switch self {
    case .unreadableFile(let option, let path): return "\(option): cannot read '\(path)': check the path."
    case .invalidFile(let option, let problem): return "\(option): \(problem)"
    }
  }
}
