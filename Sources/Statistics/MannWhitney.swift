/// The Mann–Whitney U test on raw values, with the normal approximation, the
/// tie correction and a continuity correction of 0.5; two-sided.
///
/// The statistic is U of the first sample: its rank sum minus n₁(n₁ + 1)/2,
/// with tied values given their average rank. σ² = n₁n₂/12 · ((n + 1) −
/// Σ(t³ − t)/(n(n − 1))), z = (max(U, n₁n₂ − U) − n₁n₂/2 − 0.5)/σ.
public enum MannWhitney {
  public static func test(_ first: [Double], _ second: [Double]) -> TestResult {
    guard !first.isEmpty, !second.isEmpty else { return .notComputable }
    let n1 = Double(first.count), n2 = Double(second.count), n = n1 + n2
    let values = (first.map { ($0, true) } + second.map { ($0, false) }).sorted { $0.0 < $1.0 }
    var rankSum = 0.0, tieTerm = 0.0, index = 0
    while index < values.count {
      var end = index
      while end + 1 < values.count && values[end + 1].0 == values[index].0 { end += 1 }
      let averageRank = Double(index + end) / 2 + 1, ties = Double(end - index + 1)
      for position in index...end where values[position].1 { rankSum += averageRank }
      tieTerm += ties * ties * ties - ties
      index = end + 1
    }
    let u = rankSum - n1 * (n1 + 1) / 2
    let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
    guard variance > 0 else { return TestResult(statistic: u, pValue: nil) }
    let z = (max(u, n1 * n2 - u) - n1 * n2 / 2 - 0.5) / variance.squareRoot()
    return TestResult(statistic: u, pValue: min(1, 2 * Distribution.normalSurvival(z)))
  }
}
