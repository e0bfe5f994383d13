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
}
