import Bucketing
import Testing

/// FNV-1a over UTF-16 code units, against growthbook's own on 1,200 ids.
@Suite struct FNV1aTests {
  @Test func hashesMatchGrowthBooksSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    #expect(fixtures.fnv.count == 1_200)
    var mismatches: [String] = []
    for entry in fixtures.fnv where FNV1a.hash32(entry.value) != entry.fnv1a32 { mismatches.append(entry.value) }
    #expect(mismatches == [])
  }

  /// The published test vectors of FNV-1a 32 (Fowler, Noll, Vo), on ASCII.
  @Test func publishedVectors() {
    #expect(FNV1a.hash32("") == 0x811C_9DC5)
    #expect(FNV1a.hash32("a") == 0xE40C_292C)
    #expect(FNV1a.hash32("foobar") == 0xBF9C_F968)
  }
}
