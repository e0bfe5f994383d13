// SPDX-License-Identifier: Apache-2.0

/// Whether a string's scalars or bytes hold another's as a run, in time
/// linear in both (Knuth, Morris and Pratt, "Fast pattern matching in
/// strings", SIAM J. Comput. 6(2), 1977): a vendor's "contains" operator
/// reads attributes and values that come from outside, and a naive search of
/// a 500 KB value in a 1 MB attribute takes hours.
enum SubsequenceSearch {
  /// Whether `part` occurs in `text` as consecutive elements; an empty `part` always does.
  static func contains<Element: Equatable>(_ text: [Element], _ part: [Element]) -> Bool {
    guard !part.isEmpty else { return true }
    guard part.count <= text.count else { return false }
    // fallback[i]: the length of the longest proper border of part[...i].
    var fallback = [Int](repeating: 0, count: part.count)
    var border = 0
    for index in 1..<part.count {
      while border > 0 && part[index] != part[border] { border = fallback[border - 1] }
      if part[index] == part[border] { border += 1 }
      fallback[index] = border
    }
    var matched = 0
    for element in text {
      while matched > 0 && element != part[matched] { matched = fallback[matched - 1] }
      if element == part[matched] { matched += 1 }
      if matched == part.count { return true }
    }
    return false
  }
}
