import Lab

/// Small experiments the tests share, written as the doc writes them.
enum Fixtures {
  /// An experiment with one key `color` whose variants set it to their own
  /// name in lower case.
  static func experiment(
    _ name: String = "E",
    variants: [(String, Int)],
    range: TokenRange = .all,
    key: String = "color"
  ) throws -> Experiment {
    try Experiment(
      name: name, keys: [key],
      variants: variants.map { Variant(name: $0.0, weight: $0.1, assignments: [key: .string($0.0.lowercased())]) },
      activeTokenRange: range)
  }

  static func range(_ lower: Double, _ upper: Double) throws -> TokenRange {
    try TokenRange(lower: lower, upper: upper)
  }
}

/// Whether `count` successes in `trials` are within `sigmas` standard errors
/// of the binomial expectation `trials × p`.
func withinBinomialBound(_ count: Int, of trials: Int, p: Double, sigmas: Double = 4.5) -> Bool {
  let expected = Double(trials) * p
  let standardError = (Double(trials) * p * (1 - p)).squareRoot()
  return abs(Double(count) - expected) <= sigmas * standardError
}
