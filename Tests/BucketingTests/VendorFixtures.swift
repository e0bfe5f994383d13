import Bucketing
import Foundation
import Testing

/// The conformance fixtures scripts/make_vendor_fixtures.py writes from the
/// vendors' own SDKs (optimizely-sdk and growthbook on PyPI).
enum VendorFixtures {
  static func data(_ name: String) throws -> Data {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json"))
    return try Data(contentsOf: url)
  }

  static func load<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
    try JSONDecoder().decode(T.self, from: data(name))
  }

  /// The GrowthBook fixtures, decoded once for the twelve tests that read them: the file is 4 MB,
  /// and decoding it takes more than a second of CPU under Swift Testing, which records a
  /// backtrace for every thrown error (each number or string of an `AttributeValue` throws at
  /// least once before it decodes). Decoded for each test, the two files below took 16 of
  /// BucketingTests' 23 s of CPU.
  static let growthBook = Result { try load("growthbook", as: GrowthBookFixtures.self) }

  /// The Optimizely fixtures, decoded once for the tests that read them (1 MB).
  static let optimizely = Result { try load("optimizely", as: OptimizelyFixtures.self) }
}

/// What the Optimizely fixtures hold.
struct OptimizelyFixtures: Decodable {
  struct Hash: Decodable { let key: String; let hash: UInt32; let bucket: Int }
  struct Version: Decodable { let target: String; let user: String; let match: String; let result: Bool? }
  struct Feature: Decodable { let enabled: Bool; let label: String? }
  struct Decision: Decodable {
    let id: String
    let attributes: [String: AttributeValue]
    let variations: [String: String?]
    let features: [String: Feature]
  }
  let sdk: String
  let hashes: [Hash]
  let versions: [Version]
  let decisions: [Decision]
}

/// What the GrowthBook fixtures hold.
struct GrowthBookFixtures: Decodable {
  struct FNV: Decodable { let value: String; let fnv1a32: UInt32 }
  struct Hash: Decodable { let seed: String; let value: String; let version: Int; let hash: Double? }
  struct Ranges: Decodable { let count: Int; let coverage: Double; let weights: [Double]?; let ranges: [[Double]] }
  struct Namespace: Decodable { let id: String; let namespace: [AttributeValue]; let `in`: Bool }
  struct Condition: Decodable { let condition: AttributeValue; let attributes: [String: AttributeValue]; let result: Bool }
  struct RunResult: Decodable { let inExperiment: Bool; let variationId: Int; let hashUsed: Bool; let bucket: Double? }
  struct Run: Decodable { let id: String; let attributes: [String: AttributeValue]; let results: [String: RunResult] }
  struct StickyStep: Decodable { let weights: [Double]; let bucketVersion: Int; let minBucketVersion: Int }
  struct StickyResult: Decodable { let value: AttributeValue; let source: String; let stickyBucketUsed: Bool? }
  struct Sticky: Decodable { let id: String; let results: [StickyResult] }
  struct Feature: Decodable {
    let id: String
    let attributes: [String: AttributeValue]
    let values: [String: AttributeValue]
    let sources: [String: String]
  }
  let sdk: String
  let fnv: [FNV]
  let hashes: [Hash]
  let ranges: [Ranges]
  let namespaces: [Namespace]
  let conditions: [Condition]
  let experiments: [AttributeValue]
  let runs: [Run]
  let stickySteps: [StickyStep]
  let sticky: [Sticky]
  let payload: AttributeValue
  let features: [Feature]
  /// Feature evaluations with rollouts, by id and feature.
  struct Rollout: Decodable {
    struct Result: Decodable {
      let value: AttributeValue
      let source: String
      let ruleId: String
      let variationId: Int?
      let bucket: Double?
    }
    let id: String
    let attributes: [String: AttributeValue]
    let results: [String: Result]
  }
  let rolloutPayload: AttributeValue
  let rollouts: [Rollout]
  /// A visitor who logs in: each step's rule settings, and per user each
  /// step's result and the sticky bucket documents at the end.
  struct JourneyStep: Decodable {
    let weights: [Double]
    let disableStickyBucketing: Bool?
    let withoutService: Bool?
  }
  struct Journey: Decodable {
    struct Result: Decodable {
      let attributes: [String: AttributeValue]
      let value: AttributeValue
      let source: String
      let hashAttribute: String?
      let hashValue: AttributeValue?
      let bucket: Double?
      let stickyBucketUsed: Bool?
    }
    let results: [Result]
    let documents: [String: [String: String]]
  }
  let journeySteps: [JourneyStep]
  let journeys: [Journey]
  /// The newer operators ($ini, $nini, $alli, $regexi, $notRegex, $notRegexi).
  let operatorConditions: [Condition]
  /// Saved groups, filters, ranges and prerequisites, evaluated per id and feature.
  let structurePayload: AttributeValue
  let structures: [Rollout]
}
