/// Eppo's estimate of a treatment's relative lift over the control, from which
/// all its analysis methods start (Eppo's documentation, "Statistical
/// nitty-gritty", "Frequentist analysis", equations 6–8): the lift
/// m_T / m_C − 1, taken as normal with the delta method's variance
/// (m_T / m_C)² (s²_C / (n_C m_C²) + s²_T / (n_T m_T²)), where m and s² are each
/// arm's mean and sample variance over its n subjects.
///
/// The variance is computed as s²_C m_T² / (n_C m_C⁴) + s²_T / (n_T m_C²), the
/// same expression multiplied out, so that a treatment whose every subject is 0
/// has a lift of −1 with a finite variance where the documented order of
/// operations would divide 0 by 0.
public struct EppoLift: Hashable, Sendable {
  /// The estimated lift, m_T / m_C − 1.
  public let estimate: Double
  /// The estimate's variance by the delta method.
  public let variance: Double

  /// The lift of a treatment (`treatment`: its subjects, mean and sample variance) over the control;
  /// `nil` without a lift to estimate: an arm with fewer than two subjects, a control mean of 0, or a
  /// figure that is not finite.
  public init?(
    control: (n: Int, mean: Double, variance: Double), treatment: (n: Int, mean: Double, variance: Double)
  ) {
    guard control.n > 1, treatment.n > 1, control.mean != 0,
      [control.mean, control.variance, treatment.mean, treatment.variance].allSatisfy(\.isFinite)
    else { return nil }
    let nC = Double(control.n), nT = Double(treatment.n)
    let mC2 = control.mean * control.mean
    let estimate = treatment.mean / control.mean - 1
    let variance =
      control.variance * treatment.mean * treatment.mean / (nC * mC2 * mC2) + treatment.variance / (nT * mC2)
    guard estimate.isFinite, variance.isFinite else { return nil }
    self.estimate = estimate
    self.variance = variance
  }

  /// The estimate's standard error, σ̂_Δ.
  public var standardError: Double { variance.squareRoot() }
}
