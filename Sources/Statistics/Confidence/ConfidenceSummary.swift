/// One arm's metric as Spotify Confidence reads it (spotify-confidence 4.1.0,
/// its z test's `point_estimate` and `variance`): the mean of the devices'
/// values, and their variance, taken as a proportion's p(1 − p) when the
/// metric is binary (every arm's sum of squares equals its sum) and as the
/// sample variance otherwise. With a pre-experiment feature (`ZTestLinreg`,
/// Confidence's CUPED), the mean and variance are adjusted by the feature's
/// regression slope.
public struct ConfidenceSummary: Hashable, Sendable {
  public var n: Int
  public var sum: Double
  public var sumOfSquares: Double
  public var feature: Feature?

  /// A pre-experiment value of each device, x, beside its metric, y: Σx, Σx² and Σxy.
  public struct Feature: Hashable, Sendable {
    public var sum: Double
    public var sumOfSquares: Double
    public var crossSum: Double

    public init(sum: Double, sumOfSquares: Double, crossSum: Double) {
      self.sum = sum
      self.sumOfSquares = sumOfSquares
      self.crossSum = crossSum
    }
  }

  public init(n: Int, sum: Double, sumOfSquares: Double, feature: Feature? = nil) {
    self.n = n
    self.sum = sum
    self.sumOfSquares = sumOfSquares
    self.feature = feature
  }

  /// A binary metric's arm: its conversions are its sum and its sum of squares.
  public init(n: Int, conversions: Int) {
    self.init(n: n, sum: Double(conversions), sumOfSquares: Double(conversions))
  }

  /// An arm read from its mean and sample variance, such as a report's summary.
  public init(n: Int, mean: Double, sampleVariance: Double) {
    let sum = mean * Double(n)
    self.init(n: n, sum: sum, sumOfSquares: sampleVariance * Double(n - 1) + sum * sum / Double(n))
  }

  /// The feature's adjustment of a metric over `rows` (every arm, at every look read): the slope of the
  /// metric on the feature, fitted on all of them by least squares with an intercept (0 where the
  /// normal equations are singular), and the feature's mean; `nil` unless every row has a feature.
  public static func adjustment(_ rows: some Sequence<ConfidenceSummary>) -> (slope: Double, featureMean: Double)? {
    var devices = 0.0, x = 0.0, xx = 0.0, y = 0.0, xy = 0.0
    for row in rows {
      guard let feature = row.feature else { return nil }
      devices += Double(row.n)
      x += feature.sum
      xx += feature.sumOfSquares
      y += row.sum
      xy += feature.crossSum
    }
    let determinant = devices * xx - x * x
    return (determinant == 0 ? 0 : (devices * xy - x * y) / determinant, x / devices)
  }

  /// Whether Confidence takes the metric as a proportion: every arm's sum of squares is its sum.
  public static func isBinary(_ arms: some Sequence<ConfidenceSummary>) -> Bool {
    arms.allSatisfy { $0.sumOfSquares == $0.sum }
  }

  /// The mean, which Confidence calls the point estimate; it refuses an arm without devices.
  func pointEstimate() throws(ConfidenceError) -> Double {
    guard n > 0 else { throw .noDevices }
    return sum / Double(n)
  }

  /// The mean adjusted by the feature's `adjustment`: less the slope times the arm's feature total's
  /// departure from the feature's mean, per device (`z_test_linreg_computer.point_estimate`).
  func adjustedPointEstimate(_ adjustment: (slope: Double, featureMean: Double)?) throws(ConfidenceError) -> Double {
    let mean = try pointEstimate()
    guard let adjustment, let feature else { return mean }
    let count = Double(n)
    return mean - adjustment.slope * (feature.sum - adjustment.featureMean * count) / count
  }

  /// The variance of one device's value, by Confidence's rule for binary and other metrics, less what the
  /// feature explains under `adjustment`; it refuses a negative one (rounding in a constant metric's sums
  /// can give one).
  func variance(binary: Bool, adjustment: (slope: Double, featureMean: Double)? = nil) throws(ConfidenceError) -> Double {
    let mean = try pointEstimate()
    let count = Double(n)
    var variance = binary ? sumOfSquares / count - mean * mean : (sumOfSquares - sum * sum / count) / (count - 1)
    guard !(variance < 0) else { throw .negativeVariance }
    if let adjustment, let feature {
      let b = adjustment.slope, featureMean = feature.sum / count
      let featureVariance = feature.sumOfSquares / count - featureMean * featureMean
      let covariance = feature.crossSum / count - featureMean * (sum / count)
      variance = variance + (b * (featureVariance * b) + -2 * (b * covariance))
    }
    guard !(variance < 0) else { throw .negativeVariance }
    return variance
  }
}

/// Why Confidence analyses no comparison of a table; spotify-confidence raises on each.
public enum ConfidenceError: Error, Hashable, Sendable, CustomStringConvertible {
  case noDevices
  case negativeVariance
  case bounds(ConfidenceBoundsError)

  public var description: String {
    switch self {
    case .noDevices: "an arm has no devices, so no mean"
    case .negativeVariance: "a metric's variance came out negative"
    case .bounds(let error): "no sequential bounds: \(error)"
    }
  }
}
