import Bucketing
import Testing

/// Targeting conditions against the SDK's evalCondition: 34 conditions
/// (every supported operator, empty $or and $and, type mismatches, an
/// unknown operator) on 25 attribute sets each.
@Suite struct GrowthBookConditionTests {
  /// Every case matches the Python SDK but those where the SDK suite, which
  /// the mobile SDKs follow, orders values as JavaScript does and Python
  /// does not (GrowthBookSuiteTests): a relational operator on a missing
  /// attribute (read as 0) or between a number and a string (the string read
  /// as a number). The test names each such case and counts them.
  @Test func conditionsMatchTheSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    #expect(fixtures.conditions.count == 850)
    var javaScriptOrder = 0
    for entry in fixtures.conditions
    where GrowthBookCondition.evaluate(entry.condition, attributes: entry.attributes) != entry.result {
      #expect(Self.comparesAsJavaScriptOnly(entry.condition, entry.attributes), "\(entry.condition) on \(entry.attributes)")
      javaScriptOrder += 1
    }
    #expect(javaScriptOrder == 16)
  }

  /// Whether a condition is one relational operator on one attribute that
  /// is missing or of the other type than the operand (a number and a string).
  private static func comparesAsJavaScriptOnly(_ condition: AttributeValue, _ attributes: [String: AttributeValue]) -> Bool {
    guard let members = condition.object, members.count == 1, let (attribute, test) = members.first,
      let operators = test.object, operators.count == 1, let (name, operand) = operators.first,
      ["$gt", "$gte", "$lt", "$lte"].contains(name)
    else { return false }
    switch (attributes[attribute], operand) {
    case (nil, .number), (.number?, .string), (.string?, .number): return true
    default: return false
    }
  }

  /// The newer operators, against growthbook 4.0.0: case-insensitive
  /// membership (`$ini $nini $alli`, strings compared in lower case), and
  /// regular expressions with their negations (`$regexi $notRegex
  /// $notRegexi`; a pattern that does not compile matches nothing, so its
  /// negation holds), on attributes in every case and shape.
  @Test func theNewerOperatorsMatchTheSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
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
