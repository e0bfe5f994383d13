import Foundation
import Platforms
import Testing

@testable import BenchCLI

/// `bench impact` against the vendors' SDKs: for each of the six frameworks,
/// a dashboard change (weights, a rollout, a variation removed, a salt, a
/// flag turned on, a rule removed) and 404 ids, whose pairs of variations
/// (before, after) the SDKs themselves decided (scripts/make_vendor_fixtures.py).
@Suite struct ImpactCommandTests {
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/BucketingTests/Fixtures")

  struct Move: Hashable, CustomStringConvertible {
    let experiment: String
    let from: String?
    let to: String?
    let count: Int

    init(_ object: [String: Any]) {
      experiment = object["experiment"] as! String
      from = object["from"] as? String
      to = object["to"] as? String
      count = (object["count"] as! NSNumber).intValue
    }

    var description: String { "\(experiment): \(from ?? "null") → \(to ?? "null") × \(count)" }
  }

  static func expected(_ framework: String) throws -> (attributes: String, moves: Set<Move>) {
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent("impact.json"))) as! [String: Any]
    let entry = (root["frameworks"] as! [String: Any])[framework] as! [String: Any]
    let attributes = try JSONSerialization.data(withJSONObject: entry["attributes"]!, options: [.sortedKeys])
    // Booleans would come back as 1 and 0 from Foundation; the fixtures hold none.
    #expect(!String(decoding: attributes, as: UTF8.self).contains("true"))
    let moves = (entry["moves"] as! [[String: Any]]).map(Move.init).filter { $0.count > 0 }
    return (String(decoding: attributes, as: UTF8.self), Set(moves))
  }

  @Test(arguments: ["optimizely", "growthbook", "launchdarkly", "unleash", "eppo", "statsig"])
  func everyPairCountMatchesTheSDK(framework: String) throws {
    let expected = try Self.expected(framework)
    let folder = Self.fixtures.appendingPathComponent("impact")
    let result = try BenchProcess.run([
      "impact", "--framework", framework, "--before", folder.appendingPathComponent("\(framework)-before.json").path,
      "--after", folder.appendingPathComponent("\(framework)-after.json").path, "--ids", folder.appendingPathComponent("ids.txt").path,
      "--attributes", expected.attributes, "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let moves = Set(result.standardOutput.split(separator: "\n").map { line in
      Move(try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any])
    }.filter { $0.count > 0 })
    #expect(moves == expected.moves, "missing \(expected.moves.subtracting(moves).sorted { $0.description < $1.description }.prefix(5)); extra \(moves.subtracting(expected.moves).sorted { $0.description < $1.description }.prefix(5))")
    // Each row's counts add up to the number of ids, and some ids really move.
    for (experiment, rows) in Dictionary(grouping: moves, by: \.experiment) {
      #expect(rows.reduce(0) { $0 + $1.count } == 404, "\(experiment)")
    }
    #expect(moves.contains { $0.from != $0.to })
  }

  /// issue 68: an allocation raised from 20% to 50% brings ids in and moves none of the allocated:
  /// the headline counts the ids that change arm, and says apart those that enter or leave.
  @Test func idsThatEnterOrLeaveAreNoMove() {
    let ids = (0..<10).map { "u\($0)" }
    func lines(_ variations: [String?]) -> [BucketLine] {
      zip(ids, variations).map { id, variation in
        .experiment(BucketRow(id: id, experiment: "Paywall", variation: variation, bucket: nil, reason: "test"))
      }
    }
    let before = lines(["A", "B", nil, nil, nil, nil, nil, nil, nil, "B"])
    let after = lines(["A", "B", "A", "B", "A", nil, nil, nil, nil, "A"])
    let text = Bench.Impact.text(Bench.Impact.moves(before: before, after: after, ids: ids), ids: ids.count)
    #expect(text == """
      Paywall: 1 of 10 ids move (10.0%); 3 enter the experiment, 0 leave it
        none → none: 4
        none → A: 2 (enters)
        none → B: 1 (enters)
        A → A: 1
        B → A: 1 (move)
        B → B: 1
      """)
  }

  @Test func theTextSaysWhoMovesPerRow() throws {
    let folder = Self.fixtures.appendingPathComponent("impact")
    let result = try BenchProcess.run([
      "impact", "--framework", "launchdarkly", "--before", folder.appendingPathComponent("launchdarkly-before.json").path,
      "--after", folder.appendingPathComponent("launchdarkly-after.json").path, "--ids", folder.appendingPathComponent("ids.txt").path,
    ])
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("off-with: 404 of 404 ids move (100.0%)\n  1 → 0: 404 (move)\n"))
    // Turned off, every id leaves the flag's variations for the app's default: no arm changes.
    #expect(result.standardOutput.contains("tiny: 0 of 404 ids move (0.0%); 0 enter the experiment, 404 leave it\n  1 → none: 404 (leaves)\n"))
  }

  /// LaunchDarkly decides an index; the team knows the value. Both are printed, and a change that
  /// gives an index another value moves its ids though the index stays.
  @Test func launchDarklyValuesArePrintedBesideTheirIndexes() throws {
    let examples = repositoryRoot.appendingPathComponent("docs/examples/impact")
    let before = examples.appendingPathComponent("launchdarkly-before.json").path
    let ids = examples.appendingPathComponent("ids.txt").path
    let text = try BenchProcess.run([
      "impact", "--framework", "launchdarkly", "--before", before,
      "--after", examples.appendingPathComponent("launchdarkly-after.json").path, "--ids", ids,
    ])
    #expect(text.status == 0)
    #expect(text.standardOutput.contains(
      "paywall: 280 of 1000 ids move (28.0%)\n  0 (control) → 0 (control): 216\n  0 (control) → 1 (treatment): 280 (move)\n"))
    let swapped = try BenchProcess.temporaryFile(
      try String(contentsOfFile: before, encoding: .utf8).replacingOccurrences(
        of: #""control",\#n        "treatment""#, with: #""treatment",\#n        "control""#))
    let json = try BenchProcess.run(["impact", "--framework", "launchdarkly", "--before", before, "--after", swapped, "--ids", ids, "--json"])
    #expect(json.status == 0)
    let paywall = json.standardOutput.split(separator: "\n").filter { $0.contains(#""paywall""#) }
    #expect(paywall == [
      #"{"experiment": "paywall", "from": "0", "to": "0", "fromValue": "control", "toValue": "treatment", "kind": "moves", "count": 496}"#,
      #"{"experiment": "paywall", "from": "1", "to": "1", "fromValue": "treatment", "toValue": "control", "kind": "moves", "count": 504}"#,
    ])
    let bucket = try BenchProcess.run(["bucket", "--framework", "launchdarkly", "--config", before, "user-1"])
    #expect(bucket.standardOutput.contains("user-1 paywall: 1 (treatment) (hash 0.806121292109226, FALLTHROUGH)\n"))
  }

  /// `bench impact` on Eppo's two committed configurations, for the ids file `ids`.
  private func eppoImpact(ids: String) throws -> BenchProcess.Result {
    let folder = Self.fixtures.appendingPathComponent("impact")
    return try BenchProcess.run([
      "impact", "--framework", "eppo", "--before", folder.appendingPathComponent("eppo-before.json").path,
      "--after", folder.appendingPathComponent("eppo-after.json").path, "--ids", ids,
    ])
  }

  @Test func aBlankLineInTheIdsIsRefusedWithItsNumber() throws {
    let result = try eppoImpact(ids: try BenchProcess.temporaryFile("a\n\nb\n"))
    #expect(result.status != 0)
    #expect(result.standardError.contains("line 2 is blank"))
  }

  /// An ids file whose line holds a NUL byte is a binary file, not ids: refused
  /// with the line, as is one piped to `bench bucket`.
  @Test func aControlCharacterInTheIdsIsRefusedWithItsLine() throws {
    let ids = try BenchProcess.temporaryFile("user-1\nuser\u{0}2\n")
    let result = try eppoImpact(ids: ids)
    #expect(result.status != 0)
    #expect(result.standardError.contains(
      "--ids: \(ids) line 2 holds the control character U+0000, which no id has: save the ids as text, one per line"),
      "\(result.standardError)")
    let before = Self.fixtures.appendingPathComponent("impact/eppo-before.json").path
    let piped = try BenchProcess.run(["bucket", "--framework", "eppo", "--config", before], input: "a\nb\u{1B}[2J\n")
    #expect(piped.status != 0)
    #expect(piped.standardError.contains("Id 2 holds the control character U+001B, which no id has: give the ids as text, one per line."),
      "\(piped.standardError)")
  }
}
