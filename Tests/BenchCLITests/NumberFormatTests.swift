import Testing

@testable import Report

/// How the report prints the numbers that rounding would turn into claims.
@Suite struct NumberFormatTests {
  @Test func pValuesBelowTheFloorAreNeverZero() {
    #expect(NumberFormat.pValue(0) == "< 1e-16")
    #expect(NumberFormat.pValue(3e-300) == "< 1e-16")
    #expect(NumberFormat.pValue(9.9e-17) == "< 1e-16")
    #expect(NumberFormat.pValue(1e-16) == "1.0e-16")
    #expect(NumberFormat.pValue(3.2e-13) == "3.2e-13")
    #expect(NumberFormat.pValue(0.0004) == "4.0e-04")
    #expect(NumberFormat.pValue(0.05) == "0.05")
    #expect(NumberFormat.pValue(1) == "1")
    #expect(NumberFormat.pValue(nil) == "–")
    #expect(NumberFormat.pValue(.nan) == "–")
  }

  @Test func probabilitiesNearTheEdgesAreNeverCertain() {
    #expect(NumberFormat.probability(1) == "> 99.99%")
    #expect(NumberFormat.probability(0.99995) == "> 99.99%")
    #expect(NumberFormat.probability(0.9999) == "99.99%")
    #expect(NumberFormat.probability(0.9994) == "99.94%")
    #expect(NumberFormat.probability(0.973) == "97.3%")
    #expect(NumberFormat.probability(0.5) == "50.0%")
    #expect(NumberFormat.probability(0.0004) == "0.04%")
    #expect(NumberFormat.probability(0.00001) == "< 0.01%")
    #expect(NumberFormat.probability(0) == "< 0.01%")
  }
}

/// Amounts get three significant digits at their metric's scale.
@Suite struct AmountPrecisionTests {
  @Test func decimalsFollowTheScale() {
    #expect(AmountPrecision.decimals(forScale: 3.5) == 2)
    #expect(AmountPrecision.decimals(forScale: 1) == 2)
    #expect(AmountPrecision.decimals(forScale: 0.5) == 3)
    #expect(AmountPrecision.decimals(forScale: 120) == 0)
    #expect(AmountPrecision.decimals(forScale: 1e15) == 0)
    #expect(AmountPrecision.decimals(forScale: 1e-12) == 14)
    #expect(AmountPrecision.decimals(forScale: 1e-300) == 15)
    #expect(AmountPrecision.decimals(forScale: 0) == 2)
    #expect(AmountPrecision.text(2.9346371619030833, scale: 3) == "2.93")
    #expect(AmountPrecision.text(1.234e-7, scale: 1e-7) == "0.000000123")
    #expect(AmountPrecision.text(.infinity, scale: 1) == "–")
  }
}
