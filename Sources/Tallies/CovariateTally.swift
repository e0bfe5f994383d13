/// A metric's pre-experiment covariate over the devices counted for one
/// variant, with its products with their outcomes: what a regression
/// adjustment (CUPED) needs beside the outcomes' own moments.
public struct CovariateTally: Hashable, Sendable, BitwiseCopyable {
  /// The covariates, on a grid for values of unit scale (they are standard normal).
  public package(set) var covariates = Moments(stepExponent: Moments.stepExponent(forScale: 1))
  /// Σ covariate × outcome.
  package var products = CrossProducts()

  public init() {}

  /// Counts one device's covariate and its product with `outcome`, a value
  /// of `grid`, the outcomes' own moments.
  @inline(__always)
  public mutating func add(covariate: Double, outcome: Double, grid: Moments) {
    covariates.add(covariate)
    products.add(covariate, on: covariates, times: outcome, on: grid)
  }

  public mutating func merge(_ other: CovariateTally) {
    covariates.merge(other.covariates)
    products.merge(other.products)
  }

  /// The sample covariance of covariate and outcome (divided by n − 1) over
  /// the same devices as `outcomes`; `nil` below two devices.
  public func covariance(with outcomes: Moments) -> Double? {
    products.covariance(x: covariates, y: outcomes)
  }
}
