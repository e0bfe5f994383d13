/// One arm's summary as GrowthBook's analysis engine reads it (gbstats 0.8.0,
/// `gbstats/models/statistics.py`): a conversion or an amount, a ratio of two
/// per-device amounts, or an amount adjusted by its pre-period covariate
/// (CUPED). Every figure follows gbstats' own arithmetic, so that the bench
/// reports what GrowthBook's results page would; note that a conversion's
/// variance is p(1 − p), without the n − 1 correction an amount gets.
public indirect enum GrowthBookStatistic: Sendable, Hashable {
  /// Devices and how many of them converted.
  case proportion(n: Int, sum: Double)
  /// Devices, the sum of their amounts and of the amounts' squares.
  case sampleMean(n: Int, sum: Double, sumSquares: Double)
  /// Σ numerator / Σ denominator over the same devices, with Σ numerator × denominator.
  case ratio(n: Int, numerator: GrowthBookStatistic, denominator: GrowthBookStatistic, sumOfProducts: Double)
  /// `post` less θ times `pre`, with Σ post × pre; θ is set for a pair (`adjusted(with:)`).
  case regressionAdjusted(n: Int, post: GrowthBookStatistic, pre: GrowthBookStatistic, sumOfProducts: Double, theta: Double)

  public var n: Int {
    switch self {
    case .proportion(let n, _), .sampleMean(let n, _, _), .ratio(let n, _, _, _), .regressionAdjusted(let n, _, _, _, _): n
    }
  }

  /// The sum of a conversion or an amount; a ratio and an adjusted amount have none of their own.
  var sum: Double {
    switch self {
    case .proportion(_, let sum), .sampleMean(_, let sum, _): sum
    case .ratio, .regressionAdjusted: .nan
    }
  }

  public var mean: Double {
    switch self {
    case .proportion(let n, let sum), .sampleMean(let n, let sum, _):
      return n == 0 ? 0 : sum / Double(n)
    case .ratio(_, let numerator, let denominator, _):
      return denominator.sum == 0 ? 0 : numerator.sum / denominator.sum
    case .regressionAdjusted(_, let post, let pre, _, let theta):
      return post.mean - theta * pre.mean
    }
  }

  /// The mean before any adjustment: the baseline every relative lift divides by.
  public var unadjustedMean: Double {
    if case .regressionAdjusted(_, let post, _, _, _) = self { return post.mean }
    return mean
  }

  /// The per-device variance.
  public var variance: Double {
    switch self {
    case .proportion:
      let mean = self.mean
      return mean * (1 - mean)
    case .sampleMean(let n, let sum, let sumSquares):
      guard n > 1 else { return 0 }
      return (sumSquares - sum * sum / Double(n)) / Double(n - 1)
    case .ratio(let n, let numerator, let denominator, _):
      let d = denominator.mean, m = numerator.mean
      guard d != 0, n > 1 else { return 0 }
      return numerator.variance / (d * d) - 2 * covariance * m / (d * d * d) + m * m * denominator.variance / (d * d * d * d)
    case .regressionAdjusted(let n, let post, let pre, _, let theta):
      guard n > 1 else { return 0 }
      return post.variance + theta * theta * pre.variance - 2 * theta * covariance
    }
  }

  /// The covariance of a ratio's or an adjusted amount's two parts.
  var covariance: Double {
    switch self {
    case .ratio(let n, let first, let second, let products), .regressionAdjusted(let n, let first, let second, let products, _):
      guard n > 1 else { return 0 }
      return (products - first.sum * second.sum / Double(n)) / Double(n - 1)
    case .proportion, .sampleMean:
      return 0
    }
  }

  /// gbstats' test for a summary it cannot compare: no spread at all, or a negative one.
  var hasZeroVariance: Bool { variance <= 0 }

  /// The two arms of a comparison as gbstats compares them (`BaseABTest.__init__`): adjusted
  /// amounts get the θ of the arms pooled, and when that θ is 0 (a constant covariate or outcome)
  /// they are compared unadjusted.
  static func pair(_ a: GrowthBookStatistic, _ b: GrowthBookStatistic) -> (GrowthBookStatistic, GrowthBookStatistic) {
    guard case .regressionAdjusted(let nA, let postA, let preA, let productsA, _) = a,
      case .regressionAdjusted(let nB, let postB, let preB, let productsB, _) = b
    else { return (a, b) }
    let n = nA + nB
    let post = joint(postA, postB, n: n), pre = joint(preA, preB, n: n)
    var theta = 0.0
    if pre.variance != 0, post.variance != 0 {
      let pooled = GrowthBookStatistic.regressionAdjusted(n: n, post: post, pre: pre, sumOfProducts: productsA + productsB, theta: 0)
      theta = pooled.covariance / pre.variance
    }
    guard theta != 0 else { return (postA, postB) }
    return (
      .regressionAdjusted(n: nA, post: postA, pre: preA, sumOfProducts: productsA, theta: theta),
      .regressionAdjusted(n: nB, post: postB, pre: preB, sumOfProducts: productsB, theta: theta)
    )
  }

  /// Two arms' conversions or amounts as one sample of `n` devices.
  private static func joint(_ a: GrowthBookStatistic, _ b: GrowthBookStatistic, n: Int) -> GrowthBookStatistic {
    switch (a, b) {
    case (.sampleMean(_, let sumA, let squaresA), .sampleMean(_, let sumB, let squaresB)):
      return .sampleMean(n: n, sum: sumA + sumB, sumSquares: squaresA + squaresB)
    default:
      return .proportion(n: n, sum: a.sum + b.sum)
    }
  }
}
