import Bucketing
import Testing

/// Targeting conditions against the SDK's evalCondition: 34 conditions
/// (every supported operator, empty $or and $and, type mismatches, an
/// unknown operator) on 25 attribute sets each.
@Suite struct GrowthBookConditionTests {
  @Test func conditionsMatchTheSDK() throws {
    let fixtures = try VendorFixtures.load("growthbook", as: GrowthBookFixtures.self)
    #expect(fixtures.conditions.count == 850)
    for entry in fixtures.conditions {
      #expect(
        GrowthBookCondition.evaluate(entry.condition, attributes: entry.attributes) == entry.result,
        "\(entry.condition) on \(entry.attributes)")
    }
  }

  /// A `$regex` that backtracks catastrophically on a long id gives up and
  /// fails instead of holding the evaluation for minutes; ordinary patterns,
  /// and matches near the end of a long text, are unaffected.
  @Test func aRegexThatBacktracksCatastrophicallyFails() {
    func regex(_ pattern: String, on id: String) -> Bool {
      GrowthBookCondition.evaluate(.object(["id": .object(["$regex": .string(pattern)])]), attributes: ["id": .string(id)])
    }
    let long = String(repeating: "a", count: 60)
    #expect(!regex("^(a+)+$", on: long + "!"))
    #expect(!regex("^(a|aa)+$", on: long + "!"))
    #expect(regex("^(a+)+$", on: long))
    #expect(regex("^user-[0-9]+$", on: "user-42"))
    #expect(!regex("^user-[0-9]+$", on: "user-42x"))
    #expect(regex("z$", on: String(repeating: "y", count: 100_000) + "z"))
  }
}
