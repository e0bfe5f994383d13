import Foundation
import Testing

/// docs/rules/NoveltyEffects.md: a plan that decides before a novelty has
/// faded ships the variant that will lose. novelty-effects.json's Redesign
/// settles at −5% on engaged; over 20 replications of 40,000 devices the
/// plan keeps Classic every time after 56 days, and after 14, where each
/// device still carries +4.5%, it ships Redesign in more than half. Read
/// every day, a page sees the first days' lift and calls the loser at once.
@Suite struct NoveltyDecisionTests {
  /// novelty-effects.json with `replace`'s replacements, in a new folder.
  private func plan(_ replace: [(String, String)]) throws -> (folder: URL, path: String) {
    let folder = try temporaryFolder()
    var text = try String(contentsOfFile: committedScenario("novelty-effects"), encoding: .utf8)
    for (old, new) in replace {
      #expect(text.contains(old), "\(old)")
      text = text.replacingOccurrences(of: old, with: new)
    }
    let path = folder.appendingPathComponent("novelty-effects.json").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return (folder, path)
  }

  private func wrongShips(days: Int) throws -> (wrong: Int, keep: Int) {
    let (folder, path) = try plan([(#""days": 56"#, #""days": \#(days)"#)])
    let result = try BenchProcess.run([path, "--replications", "20", "--out", folder.path, "--quiet"])
    #expect(result.status == 0, "\(result.standardError)")
    let results = try json(folder.appendingPathComponent("novelty-effects/results.json"))
    let calibration = try #require(results["calibration"] as? [String: Any])
    let experiment = try #require((calibration["experiments"] as? [[String: Any]])?.first)
    let decision = try #require(experiment["decision"] as? [String: Any])
    func count(_ name: String) throws -> Int { try #require((decision[name] as? [String: Any])?["count"] as? Int) }
    return (try count("wrongShip"), try count("keepBaseline"))
  }

  @Test func decidingEarlyShipsTheLoser() throws {
    let late = try wrongShips(days: 56), early = try wrongShips(days: 14)
    #expect(late.wrong == 0 && late.keep == 20, "after 56 days: \(late)")
    #expect(early.wrong > 10, "after 14 days: \(early)")
  }

  /// With `analysis.dailyLooks`, Spotify Confidence's page read at the end of
  /// every day (group-sequential bounds, made for peeking) calls Redesign on
  /// day 0, where 20,000 devices an arm carry +15%, in 10 of 10 replications,
  /// while the same page read after 56 days keeps Classic in all 10: a
  /// sequential test guards against noise, not against a lift that fades.
  @Test func aPageReadDailyCallsTheNoveltyOnItsFirstDay() throws {
    let (folder, path) = try plan([(#""minimumDetectableEffect": 0.05}"#, #""minimumDetectableEffect": 0.05, "dailyLooks": true}"#)])
    let result = try BenchProcess.run([
      "compare", path, "--engines", "confidence", "--replications", "10", "--out", folder.path, "--quiet",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let markdown = try String(
      contentsOf: folder.appendingPathComponent("novelty-effects-engines/engines.md"), encoding: .utf8)
    let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| Spotify Confidence (confidence) |") }
      .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
    try #require(rows.count == 2, "\(markdown)")
    // The engine, right ship, wrong ship, keep baseline, …; the daily table adds the calls and the first call's day.
    #expect(rows[0][2].hasPrefix("0.0% ") && rows[0][3].hasPrefix("100.0% "), "\(rows[0])")
    #expect(rows[1][2].hasPrefix("100.0% ") && rows[1][7] == "10" && rows[1][8] == "0 (0–0)", "\(rows[1])")
  }
}
