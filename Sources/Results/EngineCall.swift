/// What an engine's page tells a team to do with an experiment.
public enum EngineCall: Hashable, Sendable {
  case ship(String)
  /// Every variation lost: roll back to the baseline.
  case keepBaseline
  /// Nothing conclusive yet.
  case keepRunning
  /// The engine withholds the decision (the bench does on a sample ratio mismatch, contamination or peeking).
  case withheld
}
