import Foundation
import Testing

/// docs/rules/NoveltyEffects.md: a plan that decides before a novelty has
/// faded ships the variant that will lose. novelty-effects.json's Redesign
/// settles at −5% on engaged; over 20 replications of 40,000 devices the
/// plan keeps Classic every time after 56 days, and after 14, where each
/// device still carries +4.5%, it ships Redesign in more than half.
@Suite struct NoveltyDecisionTests {
  private func wrongShips(days: Int) throws -> (wrong: Int, keep: Int) {
    let folder = try temporaryFolder()
    let text = try String(contentsOfFile: committedScenario("novelty-effects"), encoding: .utf8)
      .replacingOccurrences(of: #""days": 56"#, with: #""days": \#(days)"#)
    let path = folder.appendingPathComponent("novelty-effects.json").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
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
}
