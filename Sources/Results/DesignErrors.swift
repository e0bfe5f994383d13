/// What a significant result is worth at the planned effect (Gelman and
/// Carlin, 2014): the power its standard error gives, the chance that a
/// significant estimate has the wrong sign (type S), and how many times too
/// large a significant estimate is on average (type M, the exaggeration ratio).
public struct DesignErrors: Hashable, Sendable {
  public var power: Double
  public var typeS: Double
  public var exaggeration: Double

  public init(power: Double, typeS: Double, exaggeration: Double) {
    self.power = power
    self.typeS = typeS
    self.exaggeration = exaggeration
  }
}
