/// Adjusted p-values for a family of tests: the comparisons of one experiment
/// over its variants and metrics. Missing p-values stay missing and do not
/// count in the family's size.
public enum MultipleComparisons {
  /// Holm's step-down adjustment, which controls the family-wise error rate:
  /// the i-th smallest of m p-values becomes max over j ≤ i of min(1, (m − j + 1) p₍ⱼ₎).
  public static func holm(_ pValues: [Double?]) -> [Double?] {
    adjust(pValues) { sorted in
      let m = Double(sorted.count)
      var running = 0.0
      return sorted.enumerated().map { rank, p in
        running = max(running, min(1, (m - Double(rank)) * p))
        return running
      }
    }
  }

  /// The Benjamini–Hochberg step-up adjustment, which controls the false
  /// discovery rate: the i-th smallest of m p-values becomes min over j ≥ i of
  /// min(1, m p₍ⱼ₎ / j).
  public static func benjaminiHochberg(_ pValues: [Double?]) -> [Double?] {
    adjust(pValues) { sorted in
      let m = Double(sorted.count)
      var running = 1.0
      var adjusted = [Double](repeating: 0, count: sorted.count)
      for rank in sorted.indices.reversed() {
        running = min(running, m * sorted[rank] / Double(rank + 1))
        adjusted[rank] = running
      }
      return adjusted
    }
  }

  /// Applies `rule` to the present p-values in ascending order and puts the
  /// results back in the original positions; ties keep their original order.
  private static func adjust(_ pValues: [Double?], rule: ([Double]) -> [Double]) -> [Double?] {
    let present = pValues.indices.filter { pValues[$0] != nil }.sorted {
      (pValues[$0]!, $0) < (pValues[$1]!, $1)
    }
    let adjusted = rule(present.map { pValues[$0]! })
    var result = [Double?](repeating: nil, count: pValues.count)
    for (rank, index) in present.enumerated() { result[index] = adjusted[rank] }
    return result
  }
}
