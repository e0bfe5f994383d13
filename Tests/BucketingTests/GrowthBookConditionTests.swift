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

  /// The newer operators, against growthbook 4.0.0: case-insensitive
  /// membership (`$ini $nini $alli`, strings compared in lower case), and
  /// regular expressions with their negations (`$regexi $notRegex
  /// $notRegexi`; a pattern that does not compile matches nothing, so its
  /// negation holds), on attributes in every case and shape.
  @Test func theNewerOperatorsMatchTheSDK() throws {
    let fixtures = try VendorFixtures.load("growthbook", as: GrowthBookFixtures.self)
    #expect(fixtures.operatorConditions.count == 510)
    #expect(Set(fixtures.operatorConditions.map(\.result)) == [true, false])
    for entry in fixtures.operatorConditions {
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
