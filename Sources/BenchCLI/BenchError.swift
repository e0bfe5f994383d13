/// What goes wrong while a command runs, past its arguments' checks: one line
/// naming the option and the fix, exit status 1.
enum BenchError: Error, CustomStringConvertible {
  case unreadableFile(option: String, path: String)
  case invalidFile(option: String, problem: String)
  /// An option's value that only the scenario shows to be out of range, e.g. `--device`.
  case outOfRange(option: String, problem: String)
  case unwritableFolder(option: String, path: String, reason: String)
  case runTooLarge(estimate: String)
  /// `bench inspect --find` over more devices than it replays in an hour.
  case replayTooLarge(estimate: String)
  case foreignReport(path: String, holder: String)
  /// A job folder whose path an `#SBATCH` directive cannot carry bare.
  case unsafeJobFolder(path: String)

  var description: String {
    switch self {
    case .unreadableFile(let option, let path): return "\(option): cannot read '\(path)': check the path."
    case .invalidFile(let option, let problem): return "\(option): \(problem)"
    case .outOfRange(let option, let problem): return "\(option) \(problem)"
    case .unwritableFolder(let option, let path, let reason):
      return "\(option): cannot write '\(path)' (\(reason)): check that it is writable or choose another folder."
    case .foreignReport(let path, let holder):
      return "\(path) holds \(holder): choose another --name or --out, or pass --force to replace it."
    case .unsafeJobFolder(let path):
      return "--job-folder: \(path.debugDescription) holds a character an #SBATCH line cannot carry (a space, a quote, "
        + "a line break, $, `, %, \\ or #): choose a folder of letters, digits and / . _ - + , : @ =."
    case .runTooLarge(let estimate):
      return "this run would need \(estimate), beyond the hour and 8 GB a run takes unless asked: "
        + "lower --devices or --replications, or add --allow-large-run."
    case .replayTooLarge(let estimate):
      return "--find replays devices until it finds one of the kind, every one of them if none is: "
        + "\(estimate), beyond the hour it takes unless asked: lower --devices, look at one device with --device N, "
        + "or add --allow-large-run."
    }
  }
}
