import Foundation

/// The outcomes table read on a thread of its own while the Lab table's
/// events are read, so that its rows fill the core the events leave idle.
/// Its devices are numbered apart, then renumbered (`DeviceNumbers.adopt`)
/// exactly as if the table had been read after the events: the analysis
/// cannot tell the two ways apart, and an error in the events still comes
/// first.
///
/// `@unchecked Sendable`: `result` is written by the reading thread before
/// it signals `done`, and read only after waiting for it, by the one thread
/// that calls `wait`.
final class OutcomesReadAhead: @unchecked Sendable {
  /// What the outcomes table gave, its devices numbered in its own order.
  struct Read {
    var outcomes: OutcomeLog
    var timed = TimedOutcomes()
    var devices = DeviceNumbers()
    var skipped: [(path: String, line: Int, reason: String)] = []
  }

  private let done = DispatchSemaphore(value: 0)
  private var result: Result<Read, AnalyticsTableError>?
  private var waited = false

  /// Starts reading the table at `path`.
  init(path: String, options: EventsAnalysis.Options, lastDay: Int) {
    Thread { [self] in
      var read = Read(outcomes: OutcomeLog(summing: options.outcomesAreEvents))
      result = Result { () throws(AnalyticsTableError) -> Read in
        read.skipped = try EventsAnalysis.readOutcomes(
          path, into: &read.outcomes, timed: &read.timed, devices: &read.devices, options: options, lastDay: lastDay)
        return read
      }
      done.signal()
    }.start()
  }

  /// What the table gave, once it is read.
  func wait() -> Result<Read, AnalyticsTableError> {
    if !waited {
      done.wait()
      waited = true
    }
    return result!
  }
}
