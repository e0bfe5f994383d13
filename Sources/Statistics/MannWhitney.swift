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
    // Each sample sorted on its own and walked together: a run of equal
    // values across both is one tie, whose average rank each of the first
    // sample's values adds, one at a time.
    let firstSorted = first.sorted(), secondSorted = second.sorted()
    var rankSum = 0.0, tieTerm = 0.0, index = 0
    var inFirst = 0, inSecond = 0
    while inFirst < firstSorted.count || inSecond < secondSorted.count {
      // The smaller next value starts the run (the first sample's on a tie), and the run takes every value equal to it.
      let takesFirst = inSecond == secondSorted.count
        || inFirst < firstSorted.count && !(secondSorted[inSecond] < firstSorted[inFirst])
      let value = takesFirst ? firstSorted[inFirst] : secondSorted[inSecond]
      var tiedInFirst = takesFirst ? 1 : 0, tied = 1
      if takesFirst { inFirst += 1 } else { inSecond += 1 }
      while inFirst < firstSorted.count && firstSorted[inFirst] == value {
        inFirst += 1
        tiedInFirst += 1
        tied += 1
      }
      while inSecond < secondSorted.count && secondSorted[inSecond] == value {
        inSecond += 1
        tied += 1
      }
      let averageRank = Double(2 * index + tied - 1) / 2 + 1, ties = Double(tied)
      for _ in 0..<tiedInFirst { rankSum += averageRank }
      tieTerm += ties * ties * ties - ties
      index += tied
    }
    let u = rankSum - n1 * (n1 + 1) / 2
    let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
    guard variance > 0 else { return TestResult(statistic: u, pValue: nil) }
    let z = (max(u, n1 * n2 - u) - n1 * n2 / 2 - 0.5) / variance.squareRoot()
    return TestResult(statistic: u, pValue: min(1, 2 * Distribution.normalSurvival(z)))
  }
}
