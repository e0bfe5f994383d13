import Foundation
import ScenarioFormat

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
    let typed = first.lowercased()
    return names.map { (name: $0, distance: ClosestNames.editDistance(typed, $0)) }
      .filter { $0.distance <= 2 && $0.distance < $0.name.count / 2 + 1 }
      .min { $0.distance < $1.distance }?.name
  }
}
