/// The names a user most likely meant by one that matches nothing: a field of
/// a scenario, a subcommand, an event or property of an export. One measure
/// for every message that says "did you mean".
public enum ClosestNames {
  /// The Levenshtein distance: the fewest insertions, deletions and
  /// substitutions of characters from `a` to `b`.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
      var diagonal = row[0]
      row[0] = i
      for j in 1...b.count {
        let substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)
        diagonal = row[j]
        row[j] = min(substitution, row[j] + 1, row[j - 1] + 1)
      }
    }
    return row[b.count]
  }

  /// The candidates near enough to `name` to be what was meant, best first:
  /// those equal to it but for case, then those within a third of its length
  /// in edits (at least two), nearer first, then the more frequent, then by
  /// name. A name far longer than any candidate is no typo, and measuring it
  /// would cost its length times each candidate's, so it gets none.
  ///
  /// - Parameter candidates: each name with how often the input has it.
  public static func near(_ name: String, among candidates: [(name: String, count: Int)], limit: Int = 3) -> [(name: String, count: Int)] {
    guard name.utf8.count <= 64 else { return [] }
    let lowered = name.lowercased()
    let threshold = max(2, name.count / 3)
    let scored = candidates.compactMap { candidate -> (name: String, count: Int, distance: Int)? in
      guard candidate.name != name, candidate.name.utf8.count <= 4 * 64 else { return nil }
      let other = candidate.name.lowercased()
      let distance = other == lowered ? -1 : editDistance(lowered, other)
      return distance <= threshold ? (candidate.name, candidate.count, distance) : nil
    }
    return scored.sorted {
      ($0.distance, -$0.count, $0.name) < ($1.distance, -$1.count, $1.name)
    }.prefix(limit).map { ($0.name, $0.count) }
  }
}
