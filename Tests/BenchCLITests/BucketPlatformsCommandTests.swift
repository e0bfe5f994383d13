import Foundation
import JSONDocument
import Testing

/// `bench bucket --json` for LaunchDarkly, Unleash, Eppo and Statsig, on the
/// vendor files the conformance fixtures were made with: every line agrees
/// with the vendor's SDK (ids read from standard input, attributes as given).
@Suite struct BucketPlatformsCommandTests {
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/BucketingTests/Fixtures")

  /// (row, variation) per id, as the SDK decided under attribute set `set`.
  static func expected(_ fixture: String, rowKey: String, set: Int) throws -> (attributes: String, decisions: [String: [String: String?]]) {
    let data = try Data(contentsOf: fixtures.appendingPathComponent("\(fixture).json"))
    let root = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    // The attributes as written, integers apart from other numbers (Foundation would write 7.0 as 7 and true as 1).
    let attributes = render(try JSONValue.parse(data).object!["attributeSets"]!.array![set])
    var decisions: [String: [String: String?]] = [:]
    for case let item as [String: Any] in root["cases"] as! [Any] where (item["attributes"] as! NSNumber).intValue == set {
      // LaunchDarkly's fixture holds the SDK's variation index as a number; the bench prints its digits.
      let variation = (item["variation"] as? NSNumber).map { String($0.intValue) } ?? item["variation"] as? String
      decisions[scalars(item["id"] as! String), default: [:]][item[rowKey] as! String] = .some(variation)
    }
    return (attributes, decisions)
  }

  /// An id as its scalars: Swift's dictionaries would take "é" and "e" + U+0301 for one key.
  static func scalars(_ id: String) -> String {
    id.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
  }

  static func render(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag): flag ? "true" : "false"
    case .integer(let number): String(number)
    case .number(let number): "\(number)"
    case .string(let text): String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    case .array(let elements): "[" + elements.map(render).joined(separator: ",") + "]"
    case .object(let members): "{" + members.keys.sorted().map { "\(render(.string($0))):\(render(members[$0]!))" }.joined(separator: ",") + "}"
    }
  }

  @Test(arguments: [
    ("launchdarkly", "launchdarkly-flags", "flag", 1), ("launchdarkly", "launchdarkly-flags", "flag", 2),
    ("unleash", "unleash-features", "feature", 1), ("eppo", "eppo-flags", "flag", 3),
    ("statsig", "statsig-specs", "experiment", 2),
  ])
  func everyLineAgreesWithTheSDK(framework: String, config: String, rowKey: String, set: Int) throws {
    let expected = try Self.expected(framework, rowKey: rowKey, set: set)
    // Ids with a line break or the empty id cannot travel one per line; the Swift tests cover them.
    let ids = expected.decisions.keys.map { key in
      String(String.UnicodeScalarView(key.split(separator: " ").map { Unicode.Scalar(UInt32($0, radix: 16)!)! }))
    }.filter { !$0.isEmpty && !$0.contains("\n") }.sorted()
    let result = try BenchProcess.run(
      ["bucket", "--framework", framework, "--config", Self.fixtures.appendingPathComponent("\(config).json").path,
       "--attributes", expected.attributes, "--json"],
      input: ids.joined(separator: "\n") + "\n")
    #expect(result.status == 0, "\(result.standardError)")
    var seen = 0
    for line in result.standardOutput.split(separator: "\n") {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let id = try #require(object["id"] as? String), row = try #require(object["experiment"] as? String)
      let sdk = try #require(expected.decisions[Self.scalars(id)]?[row], "\(framework) printed a row the SDK has not: \(id) \(row)")
      #expect(object["variation"] as? String == sdk, "\(framework) \(id) \(row)")
      seen += 1
    }
    #expect(seen == ids.count * expected.decisions.first!.value.count)
  }

  @Test func theEmptyIdIsNotAUserForLaunchDarklyNorStatsig() throws {
    for (framework, config) in [("launchdarkly", "launchdarkly-flags"), ("statsig", "statsig-specs")] {
      let result = try BenchProcess.run([
        "bucket", "--framework", framework, "--config", Self.fixtures.appendingPathComponent("\(config).json").path, "--json", "",
      ])
      #expect(result.status == 0)
      #expect(!result.standardOutput.isEmpty && !result.standardOutput.contains(#""variation": ""#), "\(framework)")
    }
  }

  @Test func aPipedConfigurationIsRead() throws {
    // Process substitution hands the bench /dev/fd/N: a pipe with no size.
    let config = Self.fixtures.appendingPathComponent("eppo-flags.json").path
    let result = try BenchProcess.run(["bucket", "--framework", "eppo", "--config", "/dev/stdin", "--json", "user-1"], input: try String(contentsOfFile: config, encoding: .utf8))
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains(#""experiment": "halves""#))
  }
}
