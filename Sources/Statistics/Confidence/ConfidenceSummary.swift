/// One arm's metric as Spotify Confidence reads it (spotify-confidence 4.1.0,
/// its z test's `point_estimate` and `variance`): the mean of the devices'
/// values, and their variance, taken as a proportion's p(1 − p) when the
/// metric is binary (every arm's sum of squares equals its sum) and as the
/// sample variance otherwise.
public struct ConfidenceSummary: Hashable, Sendable {
  public var n: Int
  public var sum: Double
  public var sumOfSquares: Double

  public init(n: Int, sum: Double, sumOfSquares: Double) {
    self.n = n
    self.sum = sum
    self.sumOfSquares = sumOfSquares
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

  /// Whether Confidence takes the metric as a proportion: every arm's sum of squares is its sum.
  public static func isBinary(_ arms: some Sequence<ConfidenceSummary>) -> Bool {
    arms.allSatisfy { $0.sumOfSquares == $0.sum }
  }

  /// The mean, which Confidence calls the point estimate; it refuses an arm without devices.
  func pointEstimate() throws(ConfidenceError) -> Double {
    guard n > 0 else { throw .noDevices }
    return sum / Double(n)
  }

  /// The variance of one device's value, by Confidence's rule for binary and other metrics; it refuses a
  /// negative one (rounding in a constant metric's sums can give one).
  func variance(binary: Bool) throws(ConfidenceError) -> Double {
    let mean = try pointEstimate()
    let count = Double(n)
    let variance = binary ? sumOfSquares / count - mean * mean : (sumOfSquares - sum * sum / count) / (count - 1)
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
