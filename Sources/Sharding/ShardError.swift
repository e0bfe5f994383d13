/// Why a shard cannot run or its parts cannot be merged: one line that names
/// the file or option and what to do.
public enum ShardError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `--shard` is not `K/N` with 0 ≤ K < N.
  case invalidShard(String)
  /// `merge` was given no part files.
  case noParts
  case unreadable(path: String)
  /// The file does not start the way a part file does.
  case notAPart(path: String)
  /// The file ends before its checksum line: the shard was cut short.
  case truncated(path: String)
  /// The checksum line does not match the bytes before it.
  case checksumMismatch(path: String)
  /// The checksum holds but the content does not read as a part.
  case corrupt(path: String, problem: String)
  /// A part written by another version of the part format.
  case unsupportedFormat(path: String, version: String)
  /// The part's lines end in CR LF: it was copied as text through Windows.
  case windowsLineEnds(path: String)
  /// Two parts disagree on what they are parts of.
  case mismatch(field: String, path: String, value: String, otherPath: String, otherValue: String)
  /// Two files hold the same shard.
  case duplicate(shard: Shard, paths: [String])
  /// Shards of the run that no file holds: the first few by number, and how
  /// many in all.
  /// `replications` and `folder`: the run's, for the command that makes the missing parts.
  case missing(shards: [Int], total: Int, count: Int, replications: Int, folder: String)

  /// How many missing shards an error names before it says how many more.
  static let missingNamed = 8

  public var description: String {
    switch self {
    case .invalidShard(let text):
      return "--shard: '\(text)' is not a shard: write K/N with 0 ≤ K < N, e.g. --shard 0/4."
    case .noParts:
      return "merge: no part files given: name the .part files that `bench run --shard K/N` wrote."
    case .unreadable(let path):
      return "\(path): cannot be read: check the path."
    case .notAPart(let path):
      return "\(path): is not a part file: merge takes the .part files that `bench run --shard K/N` writes."
    case .truncated(let path):
      return "\(path): is cut short (no checksum at its end): run its shard again and merge the new part."
    case .checksumMismatch(let path):
      return "\(path): its checksum does not match its content, so it was altered or damaged: run its shard again."
    case .corrupt(let path, let problem):
      return "\(path): \(problem): run its shard again."
    case .windowsLineEnds(let path):
      return "\(path): its lines end in CR LF, so it was copied as text through Windows: copy the part as binary "
        + "(or convert it back, e.g. dos2unix) and merge again."
    case .unsupportedFormat(let path, let version):
      return "\(path): is a part of format \(version), and this bench reads format \(PartialResult.formatVersion): "
        + "run its shard again with this bench."
    case .mismatch(let field, let path, let value, let otherPath, let otherValue):
      return "\(path): its \(field) is \(value) but \(otherPath)'s is \(otherValue): "
        + "merge only the parts of one run (same scenario file, seed, devices, replications, shard count and bench)."
    case .duplicate(let shard, let paths):
      return "shard \(shard) is in \(paths.joined(separator: " and ")): give each shard once."
    case .missing(let shards, let total, let count, let replications, let folder):
      let listed = shards.map { "\($0)/\(count)" }.joined(separator: ", ")
      let more = total > shards.count ? " and \(total - shards.count) more" : ""
      return "shard\(total == 1 ? "" : "s") \(listed)\(more) missing: "
        + "run \(total == 1 ? "it" : "them") with `bench run SCENARIO --replications \(replications) --shard K/\(count) "
        + "--out \(ShellWord.quoted(folder))` and merge again."
    }
  }
}
