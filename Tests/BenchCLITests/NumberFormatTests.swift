import Testing

import Results
@testable import Report

/// How the report prints the numbers that rounding would turn into claims.
@Suite struct NumberFormatTests {
  @Test func pValuesBelowTheFloorAreNeverZero() {
    #expect(NumberFormat.pValue(0) == "< 10⁻¹⁶")
    #expect(NumberFormat.pValue(3e-300) == "< 10⁻¹⁶")
    #expect(NumberFormat.pValue(9.9e-17) == "< 10⁻¹⁶")
    #expect(NumberFormat.pValue(1e-16) == "1.0×10⁻¹⁶")
    #expect(NumberFormat.pValue(3.2e-13) == "3.2×10⁻¹³")
    #expect(NumberFormat.pValue(7.7e-8) == "7.7×10⁻⁸")
    #expect(NumberFormat.pValue(0.0004) == "4.0×10⁻⁴")
    #expect(NumberFormat.pValue(0.000_999_6) == "1.0×10⁻³")
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

/// An interval that excludes no lift beside a p-value above alpha is a
/// contradiction on the page: the cell is marked and the note says which decides.
@Suite struct IntervalAgreementTests {
  private func comparison(p: Double, interval: (Double, Double)) -> Comparison {
    Comparison(
      variant: "B", baseline: "A", test: TestSummary(test: "two-proportion-z", statistic: 1.9, degreesOfFreedom: nil, pValue: p),
      adjustedPValue: p, difference: nil, lift: 0.1, liftInterval: (lower: interval.0, upper: interval.1),
      probabilityToBeatBaseline: 0.97, expectedLoss: nil, trueLift: nil, looks: [], dailyLift: [])
  }

  @Test func aDisagreementIsMarked() {
    #expect(LiftText.cell(comparison(p: 0.052, interval: (0.001, 0.2)), alpha: 0.05) == "+10.0% (+0.1% to +20.0%) †")
    #expect(LiftText.cell(comparison(p: 0.049, interval: (-0.001, 0.2)), alpha: 0.05) == "+10.0% (−0.1% to +20.0%) †")
    #expect(LiftText.cell(comparison(p: 0.01, interval: (0.02, 0.2)), alpha: 0.05) == "+10.0% (+2.0% to +20.0%)")
    #expect(LiftText.cell(comparison(p: 0.3, interval: (-0.05, 0.2)), alpha: 0.05) == "+10.0% (−5.0% to +20.0%)")
    #expect(LiftText.cell(comparison(p: 0.3, interval: (-0.2, -0.01)), alpha: 0.05) == "+10.0% (−20.0% to −1.0%) †")
    var withheld = comparison(p: 0.3, interval: (-0.2, -0.01))
    withheld.tooFewDevices = true
    #expect(LiftText.cell(withheld, alpha: 0.05) == "+10.0% (too few devices)")
  }
}
