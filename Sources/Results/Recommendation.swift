/// The one thing to do on an experiment's metric, from its variants' decisions.
public enum Recommendation: Hashable, Sendable {
  /// Ship this variant: the best of those decided "ship".
  case ship(String)
  /// Keep the baseline: no variant is worth shipping, and each is trusted.
  case keepBaseline
  /// Keep running: some variant is inconclusive. `devicesNeeded`: the most
  /// any inconclusive variant needs, per variant.
  case keepRunning(devicesNeeded: Int?)
  /// Do not trust the results: nothing can be decided, for this reason
  /// (the highest ranked among the variants').
  case doNotTrust(Distrust)
}
