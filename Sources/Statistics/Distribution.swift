import _CGSL

/// Tail probabilities of the distributions the significance tests use, each
/// from GSL's cumulative distribution functions.
///
/// Upper tails come from GSL's `_Q` functions rather than `1 - P`, which keeps
/// p-values far below machine epsilon instead of rounding them to zero.
public enum Distribution {
  /// P(Z ≤ z) for a standard normal Z (`gsl_cdf_ugaussian_P`).
  public static func normalCDF(_ z: Double) -> Double {
    GSL.value { gsl_cdf_ugaussian_P(z) }
  }

  /// P(Z > z) for a standard normal Z (`gsl_cdf_ugaussian_Q`).
  public static func normalSurvival(_ z: Double) -> Double {
    GSL.value { gsl_cdf_ugaussian_Q(z) }
  }

  /// The z with P(Z ≤ z) = p (`gsl_cdf_ugaussian_Pinv`).
  public static func normalQuantile(_ p: Double) throws(StatisticsError) -> Double {
    guard p > 0, p < 1 else { throw .outOfDomain("normal quantile", "p must lie strictly between 0 and 1, got \(p)") }
    return GSL.value { gsl_cdf_ugaussian_Pinv(p) }
  }

  /// P(X > x) for X chi-square with `degreesOfFreedom` (`gsl_cdf_chisq_Q`).
  public static func chiSquareSurvival(_ x: Double, degreesOfFreedom: Double) throws(StatisticsError) -> Double {
    guard degreesOfFreedom > 0 else {
      throw .outOfDomain("chi-square survival", "degrees of freedom must be positive, got \(degreesOfFreedom)")
    }
    guard x >= 0 else { throw .outOfDomain("chi-square survival", "the statistic must not be negative, got \(x)") }
    return GSL.value { gsl_cdf_chisq_Q(x, degreesOfFreedom) }
  }

  /// The x with P(X ≤ x) = p for X beta-distributed with shapes a and b
  /// (`gsl_cdf_beta_Pinv`): equal-mass points of a distribution, for
  /// expectations over it.
  public static func betaQuantile(_ p: Double, a: Double, b: Double) throws(StatisticsError) -> Double {
    guard p > 0, p < 1 else { throw .outOfDomain("beta quantile", "p must lie strictly between 0 and 1, got \(p)") }
    guard a > 0, b > 0, a.isFinite, b.isFinite else {
      throw .outOfDomain("beta quantile", "the shapes must be positive and finite, got \(a) and \(b)")
    }
    let x = GSL.value { gsl_cdf_beta_Pinv(p, a, b) }
    // GSL's search gives up (NaN) where the quantile lies below its reach, as for a tiny shape a at a small p.
    guard x.isFinite else { throw .outOfDomain("beta quantile", "GSL finds no quantile \(p) of Beta(\(a), \(b))") }
    return x
  }

  /// log B(a, b), the logarithm of the beta function (`gsl_sf_lnbeta_e`), the
  /// normalising constant of Beta posteriors.
  public static func logBeta(_ a: Double, _ b: Double) throws(GSLError) -> Double {
    try GSL.evaluate("log beta(\(a), \(b))") { gsl_sf_lnbeta_e(a, b, $0) }
  }
}

/// An input for which a statistic is not defined.
public enum StatisticsError: Error, Hashable, Sendable, CustomStringConvertible {
  case outOfDomain(String, String)

  public var description: String {
    switch self {
    case .outOfDomain(let what, let why): return "\(what): \(why)"
    }
  }
}
