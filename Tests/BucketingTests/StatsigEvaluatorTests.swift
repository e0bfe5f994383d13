import Bucketing
import Foundation
import JSONDocument
import Testing

/// Statsig's gates and experiments against the statsig SDK's own
/// `check_gate` and `get_experiment` (scripts/make_vendor_fixtures.py):
/// every gate and experiment of a specs response, under four users.
@Suite struct StatsigEvaluatorTests {
  struct Case {
    let attributes: Int
    let id: String
    let row: String
    let variation: String?
  }

  static let fixtures: (attributeSets: [[String: JSONValue]], cases: [Case]) = {
    let root = try! JSONValue.parse(VendorFixtures.data("statsig")).object!
    let cases = root["cases"]!.array!.map { value in
      let members = value.object!
      guard case .integer(let attributes) = members["attributes"]! else { fatalError("attributes index") }
      return Case(attributes: Int(attributes), id: members["id"]!.string!, row: members["experiment"]!.string!, variation: members["variation"]!.string)
    }
    return (root["attributeSets"]!.array!.map { $0.object! }, cases)
  }()

  static let specs = try! StatsigSpecs(json: VendorFixtures.data("statsig-specs"))

  @Test func everyDecisionMatchesTheSDK() {
    let evaluator = StatsigEvaluator(specs: Self.specs, now: Date())
    #expect(Self.fixtures.cases.count > 8_000)
    var mismatches: [String] = []
    for item in Self.fixtures.cases {
      let user = StatsigUser(userID: item.id, attributes: Self.fixtures.attributeSets[item.attributes])
      let bench: String?
      if !user.isValid {
        bench = nil
      } else if Self.specs.rowGates.contains(item.row) {
        bench = evaluator.checkGate(item.row, user: user).passed ? "true" : "false"
      } else {
        let result = evaluator.getExperiment(item.row, user: user)
        let groups = Set(Self.specs.configs[item.row]?.rules.filter(\.isExperimentGroup).compactMap(\.groupName) ?? [])
        bench = result.passed ? result.groupName.flatMap { groups.contains($0) ? $0 : nil } : nil
      }
      if bench != item.variation {
        mismatches.append("\(item.row) id \(item.id.prefix(20).debugDescription) set \(item.attributes): SDK \(item.variation ?? "null"), bench \(bench ?? "null")")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g. \(mismatches.prefix(10).joined(separator: "; "))")
  }

  @Test func specsTheSDKDropsAreSaid() {
    #expect(Self.specs.gates["unsupported"] == nil)
    #expect(Self.specs.problems.contains { $0.contains("'unsupported' uses the operator 'fancy_op'") })
    #expect(Self.specs.problems.contains { $0.contains("the gate 'nowhere', which is not in the file") })
  }

  /// issue 68: a spec without its salt hashes with an empty one, which moves every user against a file
  /// that has it: said where a pass percentage hashes, not where everyone or nobody passes.
  @Test func aSpecWithoutItsSaltIsSaid() throws {
    func specs(_ salt: String, percentage: Int) throws -> StatsigSpecs {
      let text = #"{"time": 1, "feature_gates": [{"name": "g", "type": "feature_gate", "enabled": true\#(salt), "#
        + #""rules": [{"id": "r", "passPercentage": \#(percentage), "conditions": [{"type": "public"}]}]}]}"#
      return try StatsigSpecs(json: Data(text.utf8))
    }
    let unsalted = try specs("", percentage: 50)
    #expect(unsalted.problems == [
      "'g' has no salt: the SDK hashes its pass percentages with an empty one, where Statsig's own responses give every "
        + "spec its salt; against a file that has it, every user's bucket moves (check the export kept 'salt')",
    ])
    #expect(try specs(#", "salt": "s1""#, percentage: 50).problems.isEmpty)
    #expect(try specs("", percentage: 100).problems.isEmpty)
  }

  @Test func aResponseWithoutTimeIsRefused() {
    #expect(throws: BucketingError.self) { try StatsigSpecs(json: Data(#"{"feature_gates": []}"#.utf8)) }
  }

  /// A list of 20,000 targets, read once into a set, answers as the SDK's
  /// list does: `any` case folded (a country "DE" is in a list holding
  /// "de"), `any_case_sensitive` not, `none` the negation, and a number as
  /// `str()` writes it.
  @Test func aLongListAnswersAsTheSDKsList() throws {
    let targets = (0..<20_000).map { "\"c\($0)\"" }.joined(separator: ",") + #","de",5"#
    func gate(_ name: String, _ op: String) -> String {
      #"{"name": "\#(name)", "enabled": true, "entity": "feature_gate", "rules": [{"id": "r", "passPercentage": 100, "#
        + #""conditions": [{"type": "user_field", "field": "country", "operator": "\#(op)", "targetValue": [\#(targets)]}]}]}"#
    }
    let specs = try StatsigSpecs(json: Data((#"{"time": 1, "feature_gates": ["# + [
      gate("any", "any"), gate("sensitive", "any_case_sensitive"), gate("none", "none"),
    ].joined(separator: ",") + "]}").utf8))
    let evaluator = StatsigEvaluator(specs: specs, now: Date(timeIntervalSince1970: 0))
    func passes(_ gate: String, _ country: JSONValue) -> Bool {
      evaluator.checkGate(gate, user: StatsigUser(userID: "u", attributes: ["country": country])).passed
    }
    #expect(passes("any", .string("DE")) && passes("any", .string("c19999")) && passes("any", .integer(5)))
    #expect(!passes("any", .string("FR")) && !passes("any", .string("c20000")))
    #expect(!passes("sensitive", .string("DE")) && passes("sensitive", .string("de")))
    #expect(!passes("none", .string("De")) && passes("none", .string("FR")))
  }

  @Test func hugeNumbersAreErrorsOrMismatchesNotTraps() throws {
    // Python's int() of 1e300 is a huge int: no bucket equals it, and a date that far off raises.
    let specs = try StatsigSpecs(json: Data(#"""
      {"time": 1, "feature_gates": [
        {"name": "bucket", "enabled": true, "entity": "feature_gate", "rules": [{"id": "r", "passPercentage": 100,
          "conditions": [{"type": "user_bucket", "operator": "any", "targetValue": [1e300, 5], "additionalValues": {"salt": "s"}}]}]},
        {"name": "date", "enabled": true, "entity": "feature_gate", "rules": [{"id": "r", "passPercentage": 100,
          "conditions": [{"type": "user_field", "field": "signup", "operator": "before", "targetValue": 1e300}]}]}]}
      """#.utf8))
    let evaluator = StatsigEvaluator(specs: specs, now: Date(timeIntervalSince1970: 0))
    let user = StatsigUser(userID: "u", attributes: ["custom": .object(["signup": .integer(5)])])
    #expect(evaluator.checkGate("date", user: user).reason.contains("OverflowError"))
    #expect(!evaluator.checkGate("date", user: user).passed)
    _ = evaluator.checkGate("bucket", user: user)
  }
}
