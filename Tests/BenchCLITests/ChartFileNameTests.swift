import Foundation
import Testing

@testable import Report

/// Names from data (an export's flag key, a table's experiment or metric
/// column, `--metric`) become chart file names: never a path, never a broken link.
@Suite struct ChartFileNameTests {
  @Test func aSafeNameIsKeptAsItIs() {
    #expect(ChartFileName.make(["upgrade", "PriceDisplay", "revenue.p50"], suffix: "-lift.svg") == "upgrade-PriceDisplay-revenue.p50-lift.svg")
    #expect(ChartFileName.make(["flaky-network"], suffix: "-delivery.svg") == "flaky-network-delivery.svg")
  }

  @Test func anyOtherCharacterBecomesAnUnderscoreAndTheNameTakesItsDigest() {
    let name = ChartFileName.make(["tiny", "../../escape"], suffix: "-exposures.svg")
    // The first 12 digits of SHA-256 of "tiny-../../escape", from Python: hashlib.sha256(b"tiny-../../escape").hexdigest()[:12].
    #expect(name == "tiny-.._.._escape-1fad3fee2fac-exposures.svg")
    #expect(!name.contains("/"))
    let other = ChartFileName.make(["tiny", "..//../escape"], suffix: "-exposures.svg")
    #expect(other != name && !other.contains("/"))
    #expect(ChartFileName.make([".hidden"], suffix: ".svg").hasPrefix("_hidden-"))
    #expect(ChartFileName.make(["Café"], suffix: ".svg").hasPrefix("Caf_-"))
    let long = ChartFileName.make([String(repeating: "a", count: 300)], suffix: "-lift.svg")
    #expect(long.utf8.count == 100 + 1 + 12 + "-lift.svg".utf8.count)
  }
}
