import Foundation

/// Draws from the distributions the simulation uses, written out here so that
/// the same bits give the same values whatever the standard library does.
extension RandomStream {
  /// A standard normal deviate (Box–Muller, one of the pair).
  @inlinable
  public mutating func nextNormal() -> Double {
    let radius = (-2 * log(nextOpenUnit())).squareRoot()
    return radius * cos(2 * Double.pi * nextUnit())
  }

  /// `count` (at most 64) Bernoulli draws with probability `p` as bits, the
  /// first in bit 0: the same draws as `count` calls of `nextBernoulli`, with
  /// no branch on their outcomes, which are hard to predict.
  @inlinable
  public mutating func nextBernoulliBits(_ p: Double, count: Int) -> UInt64 {
    precondition(count >= 0 && count <= 64, "at most 64 draws fit in the bits")
    if p >= 1 { return count == 64 ? .max : (1 &<< UInt64(count)) &- 1 }
    if p <= 0 { return 0 }
    var bits: UInt64 = 0
    for index in 0..<count {
      let success: UInt64 = nextUnit() < p ? 1 : 0
      bits |= success &<< UInt64(index)
    }
    return bits
  }

  /// An exponential deviate with the given mean.
  @inlinable
  public mutating func nextExponential(mean: Double) -> Double {
    mean == 0 ? 0 : -mean * log(nextOpenUnit())
  }

  /// A Poisson deviate with the given mean, at most 30 (Knuth's product of
  /// uniforms: count the draws until their product falls below e^−mean).
  @inlinable
  public mutating func nextPoisson(mean: Double) -> Int {
    let limit = exp(-mean)
    var count = 0, product = nextUnit()
    while product > limit {
      count += 1
      product *= nextUnit()
    }
    return count
  }

  /// A log-normal deviate with mean 1 and log standard deviation `sigma`.
  @inlinable
  public mutating func nextUnitMeanLognormal(sigma: Double) -> Double {
    exp(sigma * nextNormal() - sigma * sigma / 2)
  }

  /// A gamma deviate with mean 1 and the given shape (Marsaglia and Tsang,
  /// "A simple method for generating gamma variables", 2000; shapes below 1
  /// are boosted by U^(1/shape)).
  @inlinable
  public mutating func nextUnitMeanGamma(shape: Double) -> Double {
    if shape < 1 {
      let boost = pow(nextOpenUnit(), 1 / shape)
      return nextUnitMeanGamma(shape: shape + 1) * (shape + 1) / shape * boost
    }
    let d = shape - 1.0 / 3, c = 1 / (9 * d).squareRoot()
    while true {
      var x: Double, v: Double
      repeat {
        x = nextNormal()
        v = 1 + c * x
      } while v <= 0
      v = v * v * v
      let u = nextOpenUnit()
      if u < 1 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1 - v + log(v)) {
        return d * v / shape
      }
    }
  }
}
