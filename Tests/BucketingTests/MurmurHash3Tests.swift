import Bucketing
import Testing

/// MurmurHash3 x86 32-bit and Optimizely's buckets, bit for bit against
/// optimizely-sdk on 4,500 keys (empty, non-ASCII, 200 characters long).
@Suite struct MurmurHash3Tests {
  @Test func hashesAndBucketsMatchOptimizelysSDK() throws {
    let fixtures = try VendorFixtures.optimizely.get()
    #expect(fixtures.hashes.count == 4_500)
    for case let hash in fixtures.hashes {
      #expect(MurmurHash3.x86_32(hash.key, seed: 1) == hash.hash, "\(hash.key)")
    }
    var mismatches = 0
    for hash in fixtures.hashes where OptimizelyBucketer.bucket(bucketingID: hash.key, parentID: "") != hash.bucket {
      mismatches += 1
    }
    #expect(mismatches == 0)
  }

  /// The reference vectors of the algorithm's author, independent of any SDK.
  @Test func publishedVectors() {
    #expect(MurmurHash3.x86_32("", seed: 0) == 0)
    #expect(MurmurHash3.x86_32("", seed: 1) == 0x514E_28B7)
    #expect(MurmurHash3.x86_32("hello", seed: 0) == 0x248B_FA47)
    #expect(MurmurHash3.x86_32("The quick brown fox jumps over the lazy dog", seed: 0) == 0x2E4F_F723)
  }
}
