import Bucketing
import Testing

/// GrowthBook's hash versions, bucket ranges and namespaces, against the SDK.
@Suite struct GrowthBookHashTests {
  @Test func hashesOfBothVersionsMatchTheSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    #expect(fixtures.hashes.count == 3_600)
    for entry in fixtures.hashes {
      #expect(GrowthBookHash.hash(seed: entry.seed, value: entry.value, version: entry.version) == entry.hash, "\(entry)")
    }
    #expect(GrowthBookHash.hash(seed: "s", value: "v", version: 3) == nil)
  }

  /// Ranges bit for bit, including coverage 0 and beyond [0, 1], a single
  /// variation, and weights that do not sum to 1 (equal weights instead).
  @Test func bucketRangesMatchTheSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    for entry in fixtures.ranges {
      let ranges = GrowthBookHash.bucketRanges(count: entry.count, coverage: entry.coverage, weights: entry.weights)
      #expect(ranges.map { [$0.start, $0.end] } == entry.ranges, "\(entry)")
    }
  }

  @Test func namespacesMatchTheSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    for entry in fixtures.namespaces {
      let namespace = GrowthBookHash.Namespace(
        id: entry.namespace[0].string!, start: entry.namespace[1].number!, end: entry.namespace[2].number!)
      #expect(namespace.contains(userID: entry.id) == entry.in, "\(entry.id) \(entry.namespace)")
    }
  }
}
