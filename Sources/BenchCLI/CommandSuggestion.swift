import Foundation

extension Bench {
  /// The subcommand a mistyped first argument was meant to be, when it is
  /// neither a subcommand, an option nor a file, and within two edits of a
  /// subcommand's name: `bench anlyze events.csv` means `bench analyze`,
  /// where the parser would read "anlyze" as a scenario file and complain
  /// about the next argument instead.
  public static func suggestedSubcommand(for arguments: [String], fileExists: (String) -> Bool) -> String? {
    guard let first = arguments.first, !first.hasPrefix("-"), !fileExists(first) else { return nil }
    let names = configuration.subcommands.map { $0._commandName } + ["help"]
    guard !names.contains(first) else { return nil }
    let typed = Array(first.lowercased())
    return names.map { (name: $0, distance: editDistance(typed, Array($0))) }
      .filter { $0.distance <= 2 && $0.distance < $0.name.count / 2 + 1 }
      .min { $0.distance < $1.distance }?.name
  }

  /// The Levenshtein distance: insertions, deletions and substitutions.
  private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
