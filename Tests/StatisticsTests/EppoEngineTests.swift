import Foundation
import Statistics
import Testing

/// Eppo's sequential method as its documentation writes it: the lift, its delta-method variance and
/// the confidence sequence, against scripts/make_eppo_fixtures.py's evaluation of the printed formulas
/// in 60-digit arithmetic, and the sequence's promise of coverage at every sample size at once.
@Suite struct EppoEngineTests {
  struct Arm: Decodable {
    let n: Int
    let mean: Double
    let variance: Double
  }

  struct Case: Decodable {
    let kind: String
    let control: Arm
    let treatment: Arm
    let confidence: Double
    let tuningSample: Double
    let lift: Double?
    let variance: Double?
    let rho: Double
    let boundary: Double
    let lower: Double?
    let upper: Double?
  }

  struct Fixture: Decodable {
    let generator: String
    let cases: [Case]
  }

  static func fixture() throws -> Fixture {
    let url = try #require(Bundle.module.url(forResource: "eppo", withExtension: "json", subdirectory: "Fixtures"))
    return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
  }

  /// Within 1e-12 of the reference, relative, or absolutely where the reference is below 1e-12.
  static func close(_ actual: Double, _ expected: Double) -> Bool {
    abs(actual - expected) <= 1e-12 * max(abs(expected), 1)
  }

  @Test func everyFigureIsTheDocumentedFormulas() throws {
    let fixture = try Self.fixture()
    #expect(fixture.cases.count == 63)
    var withLift = 0
    for (index, reference) in fixture.cases.enumerated() {
      let sequence = EppoConfidenceSequence(confidence: reference.confidence, tuningSample: reference.tuningSample)
      let t = reference.control.n + reference.treatment.n
      #expect(Self.close(sequence.rho, reference.rho), "case \(index): rho \(sequence.rho), not \(reference.rho)")
      #expect(
        Self.close(sequence.boundary(sampleSize: t), reference.boundary),
        "case \(index): B \(sequence.boundary(sampleSize: t)), not \(reference.boundary)")
      let lift = EppoLift(
        control: (reference.control.n, reference.control.mean, reference.control.variance),
        treatment: (reference.treatment.n, reference.treatment.mean, reference.treatment.variance))
      guard let expected = reference.lift, let variance = reference.variance, let lower = reference.lower,
        let upper = reference.upper
      else {
        #expect(lift == nil, "case \(index): a control mean of 0 has no lift")
        continue
      }
      let actual = try #require(lift, "case \(index)")
      withLift += 1
      #expect(Self.close(actual.estimate, expected), "case \(index): lift \(actual.estimate), not \(expected)")
      #expect(Self.close(actual.variance, variance), "case \(index): variance \(actual.variance), not \(variance)")
      let interval = sequence.interval(actual, sampleSize: t)
      #expect(Self.close(interval.lower, lower), "case \(index): lower \(interval.lower), not \(lower)")
      #expect(Self.close(interval.upper, upper), "case \(index): upper \(interval.upper), not \(upper)")
    }
    #expect(withLift == 57)
  }

  @Test func withoutTwoSubjectsAnArmOrAFiniteFigureThereIsNoLift() {
    #expect(EppoLift(control: (1, 0.5, 0), treatment: (100, 0.5, 0.25)) == nil)
    #expect(EppoLift(control: (100, 0.5, 0.25), treatment: (1, 0.5, 0)) == nil)
    #expect(EppoLift(control: (100, 0, 0), treatment: (100, 0.5, 0.25)) == nil)
    #expect(EppoLift(control: (100, .nan, 0), treatment: (100, 0.5, 0.25)) == nil)
    // A control mean so small that the lift overflows.
    #expect(EppoLift(control: (100, 1e-300, 1e-300), treatment: (100, 1e10, 1)) == nil)
  }

  @Test func theIntervalIsWiderThanAFixedSampleOneAndNarrowsTowardsIt() throws {
    // Eppo's "Analysis methods": the sequential interval is wider than the fixed-sample one (z = 1.96
    // at 95%), the price of reading it any time, and the ratio is smallest near N_tune subjects.
    let sequence = EppoConfidenceSequence()
    let z = try Distribution.normalQuantile(0.975)
    let ratios = [100, 1_000, 10_000, 100_000, 1_000_000].map { sequence.boundary(sampleSize: $0) / z }
    #expect(ratios.allSatisfy { $0 > 1 })
    #expect(ratios[2] < ratios[0] && ratios[2] < ratios[4], "\(ratios)")
    // At N_tune itself: B = 3.0352, about 1.55 fixed-sample widths.
    #expect(abs(sequence.boundary(sampleSize: 10_000) - 3.035_208_990_376_252_5) < 1e-12, "\(sequence.boundary(sampleSize: 10_000))")
  }

  @Test func theSequenceCoversTheTruthAtEveryLookAtOnce() throws {
    // Howard et al.'s guarantee, which Eppo's method rests on: over 4,000 null paths of a normal lift
    // estimate looked at after every 100 subjects up to 20,000 (200 looks), the 95% sequence excludes
    // the truth at some look at most 5% of the time, where the fixed-sample interval read at every
    // look does so far more often.
    var normals = Normals(seed: 2026)
    let sequence = EppoConfidenceSequence()
    let z = try Distribution.normalQuantile(0.975)
    let paths = 4_000
    var sequenceMissed = 0, fixedMissed = 0
    for _ in 0..<paths {
      var sum = 0.0, subjects = 0, missedBySequence = false, missedByFixed = false
      for _ in 0..<200 {
        sum += 10 * normals.next()  // a hundred more unit-variance subjects
        subjects += 100
        // The mean of `subjects` unit-variance subjects: its standard error is 1/√t.
        let mean = sum / Double(subjects), standardError = 1 / Double(subjects).squareRoot()
        if abs(mean) > standardError * sequence.boundary(sampleSize: subjects) { missedBySequence = true }
        if abs(mean) > standardError * z { missedByFixed = true }
      }
      if missedBySequence { sequenceMissed += 1 }
      if missedByFixed { fixedMissed += 1 }
    }
    #expect(Double(sequenceMissed) / Double(paths) <= 0.05, "the sequence missed on \(sequenceMissed) of \(paths) paths")
    #expect(Double(fixedMissed) / Double(paths) > 0.25, "the fixed interval missed on only \(fixedMissed) of \(paths) paths")
  }
}
