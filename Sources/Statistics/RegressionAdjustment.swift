/// A group's outcome with a covariate measured on the same units before the
/// experiment started: the inputs of a regression adjustment.
public struct CovariateSample: Hashable, Sendable {
  /// The outcome's size, mean and sample variance.
  public var outcome: SampleSummary
  public var covariateMean: Double
  /// The covariate's sample variance (divided by n − 1).
  public var covariateVariance: Double
  /// The sample covariance of covariate and outcome (divided by n − 1).
  public var covariance: Double

  public init(outcome: SampleSummary, covariateMean: Double, covariateVariance: Double, covariance: Double) {
    self.outcome = outcome
    self.covariateMean = covariateMean
    self.covariateVariance = covariateVariance
    self.covariance = covariance
  }
}

/// CUPED: the outcome less θ times the covariate's deviation from its mean
/// (Deng, Xu, Kohavi and Walker, "Improving the sensitivity of online
/// controlled experiments by utilizing pre-experiment data", WSDM 2013).
///
/// A covariate measured before assignment has the same distribution in every
/// group, so the adjustment removes none of the effect, only the part of the
/// outcome's spread that the covariate predicts: with correlation ρ the
/// variance of a group's mean falls to (1 − ρ²) of what it was.
///
/// θ is the common slope of the outcome on the covariate within the groups,
/// Σ(nᵢ − 1)cov(x, y)ᵢ / Σ(nᵢ − 1)var(x)ᵢ, the slope an analysis of
/// covariance fits; the difference of two adjusted means is then that
/// regression's group coefficient. Each group's adjusted mean is
/// ȳᵢ − θ(x̄ᵢ − x̄), with x̄ the covariate's mean over all groups, and its
/// variance that of the residuals y − θx within the group,
/// var(y)ᵢ − 2θ·cov(x, y)ᵢ + θ²·var(x)ᵢ; like Welch's test it leaves out the
/// small uncertainty of θ itself.
public struct RegressionAdjustment: Hashable, Sendable {
  /// The slope removed from the outcome per unit of the covariate.
  public let theta: Double
  /// The covariate's mean over every group, where adjusted means are read.
  public let covariateMean: Double

  /// The adjustment fitted on `groups` (every arm of one experiment); `nil`
  /// where no group of two or more has a covariate that varies, so there is
  /// nothing to fit.
  public init?(groups: [CovariateSample]) {
    var covariances = 0.0, variances = 0.0, total = 0.0, weightedMean = 0.0
    for group in groups where group.outcome.count > 0 {
      let count = Double(group.outcome.count)
      total += count
      weightedMean += count * group.covariateMean
      guard group.outcome.count > 1 else { continue }
      covariances += (count - 1) * group.covariance
      variances += (count - 1) * group.covariateVariance
    }
    guard variances > 0, covariances.isFinite, variances.isFinite else { return nil }
    theta = covariances / variances
    covariateMean = weightedMean / total
  }

  /// The group's adjusted outcome: its mean moved to the common covariate
  /// mean, and the variance of its residuals (0 at the least, where the
  /// outcome is a line in the covariate and rounding would go below).
  public func adjusted(_ group: CovariateSample) -> SampleSummary {
    let variance =
      group.outcome.variance - 2 * theta * group.covariance + theta * theta * group.covariateVariance
    return SampleSummary(
      count: group.outcome.count, mean: group.outcome.mean - theta * (group.covariateMean - covariateMean),
      variance: max(variance, 0))
  }

  /// The share of the group's outcome variance the adjustment removes, 1 −
  /// var(residuals)/var(outcome); `nil` where the outcome does not vary.
  public func varianceReduction(_ group: CovariateSample) -> Double? {
    guard group.outcome.count > 1, group.outcome.variance > 0 else { return nil }
    return 1 - adjusted(group).variance / group.outcome.variance
  }
}
