import Statistics
import Testing

/// Type S and type M errors against scipy (retrodesign.json, written by
/// `scripts/make_fixtures.py retrodesign`), which integrates the
/// exaggeration numerically where the bench uses its closed form.
@Suite struct RetrodesignTests {
  @Test func matchesScipy() throws {
    let cases = try ReferenceCases(file: "retrodesign").cases("cases")
    #expect(cases.count == 10)
    for c in cases {
      let design = try #require(Retrodesign(
        difference: c.double("difference"), standardError: c.double("standardError"), alpha: c.double("alpha")))
      #expect(agrees(design.power, c.double("power")), "\(c)")
      #expect(agrees(design.typeS, c.double("typeS")), "\(c)")
      #expect(agrees(design.exaggeration, c.double("exaggeration")), "\(c)")
    }
  }

  /// Gelman and Carlin's rule of thumb: at power 0.05 a significant estimate
  /// has the wrong sign about a quarter of the time and overstates the
  /// effect about tenfold; at high power it does neither.
  @Test func lowPowerExaggeratesAndFlipsSigns() throws {
    let weak = try #require(Retrodesign(difference: 0.1, standardError: 0.5, alpha: 0.05))
    #expect(weak.power < 0.06 && weak.typeS > 0.25 && weak.exaggeration > 10)
    let strong = try #require(Retrodesign(difference: 2, standardError: 0.1, alpha: 0.05))
    #expect(strong.power > 0.999_999 && strong.typeS < 1e-80 && abs(strong.exaggeration - 1) < 1e-9)
  }

  /// The sign of the true difference does not matter, and the domain is refused.
  @Test func edges() {
    #expect(Retrodesign(difference: -0.1, standardError: 0.05, alpha: 0.05)
      == Retrodesign(difference: 0.1, standardError: 0.05, alpha: 0.05))
    #expect(Retrodesign(difference: 0, standardError: 0.05, alpha: 0.05) == nil)
    #expect(Retrodesign(difference: 0.1, standardError: 0, alpha: 0.05) == nil)
    #expect(Retrodesign(difference: 0.1, standardError: .infinity, alpha: 0.05) == nil)
    #expect(Retrodesign(difference: 0.1, standardError: 0.05, alpha: 1) == nil)
  }
}
