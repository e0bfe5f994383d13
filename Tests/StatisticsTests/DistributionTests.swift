import Statistics
import Testing

@Suite struct DistributionTests {
  let fixtures: DistributionFixtures

  init() throws {
    fixtures = try DistributionFixtures.load()
  }

  @Test func normalTailsMatchScipy() {
    #expect(fixtures.normalCDF.count == 12)
    for point in fixtures.normalCDF {
      #expect(agrees(Distribution.normalCDF(point.z), point.p), "P(Z <= \(point.z))")
    }
    for point in fixtures.normalSurvival {
      #expect(agrees(Distribution.normalSurvival(point.z), point.p), "P(Z > \(point.z))")
    }
  }

  @Test func normalQuantilesMatchScipy() throws {
    for point in fixtures.normalQuantile {
      #expect(agrees(try Distribution.normalQuantile(point.p), point.z), "quantile \(point.p)")
    }
  }

  @Test func chiSquareTailsMatchScipy() throws {
    for point in fixtures.chiSquareSurvival {
      #expect(agrees(try Distribution.chiSquareSurvival(point.x, degreesOfFreedom: point.df), point.p), "chi2(\(point.x), \(point.df))")
    }
  }

  @Test func betaQuantilesMatchScipy() throws {
    for point in fixtures.betaQuantile {
      let x = try Distribution.betaQuantile(point.p, a: point.a, b: point.b)
      #expect(agrees(x, point.x, relative: 1e-8, absolute: 1e-12), "Beta(\(point.a), \(point.b)) quantile \(point.p): \(x) against \(point.x)")
    }
    #expect(throws: StatisticsError.self) { try Distribution.betaQuantile(1, a: 2, b: 3) }
    #expect(throws: StatisticsError.self) { try Distribution.betaQuantile(0.5, a: 0, b: 3) }
    // scipy's 1.26e-51: below what GSL's search reaches, refused rather than answered NaN.
    #expect(throws: StatisticsError.self) { try Distribution.betaQuantile(0.1, a: 0.02, b: 5) }
  }

  @Test func logBetaMatchesScipy() throws {
    for point in fixtures.logBeta {
      #expect(agrees(try Distribution.logBeta(point.a, point.b), point.value), "log B(\(point.a), \(point.b))")
    }
  }

  /// GSL's default handler would abort the process here; the module turns it
  /// off and reports the status code instead.
  @Test func aGSLDomainErrorBecomesASwiftError() {
    #expect {
      try Distribution.logBeta(-1, 2)
    } throws: { error in
      guard let error = error as? GSLError else { return false }
      return error.status == 1 && "\(error)" == "log beta(-1.0, 2.0): input domain error (GSL status 1)"
    }
  }

  @Test func inputsOutsideTheDomainAreRejectedBeforeGSL() {
    #expect(throws: StatisticsError.outOfDomain("normal quantile", "p must lie strictly between 0 and 1, got 1.0")) {
      try Distribution.normalQuantile(1)
    }
    #expect(throws: StatisticsError.outOfDomain("chi-square survival", "degrees of freedom must be positive, got 0.0")) {
      try Distribution.chiSquareSurvival(1, degreesOfFreedom: 0)
    }
  }
}
