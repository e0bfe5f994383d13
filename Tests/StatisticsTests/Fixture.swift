import Foundation
import Testing

/// The reference values scripts/make_fixtures.py wrote with scipy.
struct DistributionFixtures: Decodable {
  struct NormalPoint: Decodable { let z: Double; let p: Double }
  struct ChiSquarePoint: Decodable { let x: Double; let df: Double; let p: Double }
  struct LogBetaPoint: Decodable { let a: Double; let b: Double; let value: Double }
  struct BetaQuantilePoint: Decodable { let p: Double; let a: Double; let b: Double; let x: Double }

  let generator: String
  let normalCDF: [NormalPoint]
  let normalSurvival: [NormalPoint]
  let normalQuantile: [NormalPoint]
  let chiSquareSurvival: [ChiSquarePoint]
  let logBeta: [LogBetaPoint]
  let betaQuantile: [BetaQuantilePoint]

  static func load() throws -> DistributionFixtures {
    let url = try #require(Bundle.module.url(forResource: "distributions", withExtension: "json", subdirectory: "Fixtures"))
    return try JSONDecoder().decode(DistributionFixtures.self, from: Data(contentsOf: url))
  }
}

/// Agreement with a reference: within a relative error of 1e-9, or, for
/// values below 1e-300 where doubles lose precision, within 1e-300.
func agrees(_ actual: Double, _ expected: Double) -> Bool {
  if abs(expected) < 1e-300 { return abs(actual - expected) <= 1e-300 }
  return abs(actual - expected) <= 1e-9 * abs(expected)
}
