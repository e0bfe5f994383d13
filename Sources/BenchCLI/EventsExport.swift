import AnalyticsTable
import AtomicOutput
import Foundation
import Results
import Simulation

/// `bench run --events`: the first replication simulated with its analytics
/// events and outcomes written as it goes.
enum EventsExport {
  /// Simulates replication 0 and writes its tables batch by batch as the
  /// batches finish, in device order; each batch's lines are formatted on the
  /// thread that simulated it (`EventsTableWriter`), so the tables need no
  /// more memory than the batches in flight. A failed write leaves the files
  /// that were there before.
  ///
  /// - Returns: the run's tally, and the events and outcome rows written.
  static func run(
    _ simulator: Simulator, threads: Int, events: String, outcomes: String, progress: (Int) -> Void = { _ in }
  ) async throws(OutputError) -> (tally: RunTally, events: Int, outcomes: Int) {
    let plan = simulator.plan
    let metrics = plan.scenario.metrics.count
    var eventsFile = try StreamedFile(url: URL(fileURLWithPath: events))
    var outcomesFile = try StreamedFile(url: URL(fileURLWithPath: outcomes))
    var failure: OutputError?
    var count = 0
    do throws(OutputError) {
      try eventsFile.write(EventsTable.header)
      try outcomesFile.write(OutcomesTable.header)
    } catch {
      failure = error
    }
    let tally = await simulator.run(
      replication: 0, threads: threads, makeObserver: { EventsTableWriter(plan: plan) },
      receive: { (writer: EventsTableWriter) in
        guard failure == nil else { return }
        do throws(OutputError) {
          try eventsFile.write(writer.events.bytes)
          try outcomesFile.write(writer.outcomes.bytes)
          count += writer.eventCount
        } catch {
          failure = error
        }
      },
      progress: progress)
    if let failure {
      eventsFile.discard()
      outcomesFile.discard()
      throw failure
    }
    try eventsFile.commit()
    try outcomesFile.commit()
    return (tally, count, tally.devices * metrics)
  }

  /// Simulates replication 0 and writes its events as the tool of `mapping`
  /// exports them (`ShapedEventsWriter`), batch by batch in device order.
  ///
  /// - Returns: the run's tally and the rows written.
  static func runShaped(
    _ simulator: Simulator, threads: Int, events: String, mapping: ExportMapping, startDay: Int,
    progress: (Int) -> Void = { _ in }
  ) async throws(OutputError) -> (tally: RunTally, events: Int) {
    let plan = simulator.plan
    var file = try StreamedFile(url: URL(fileURLWithPath: events))
    var failure: OutputError?
    var count = 0
    if let header = ExportWriter(mapping: mapping).header {
      do throws(OutputError) { try file.write(header) } catch { failure = error }
    }
    let tally = await simulator.run(
      replication: 0, threads: threads,
      makeObserver: { ShapedEventsWriter(plan: plan, mapping: mapping, startDay: startDay) },
      receive: { (writer: ShapedEventsWriter) in
        guard failure == nil else { return }
        do throws(OutputError) {
          try file.write(writer.bytes)
          count += writer.rowCount
        } catch {
          failure = error
        }
      },
      progress: progress)
    if let failure {
      file.discard()
      throw failure
    }
    try file.commit()
    return (tally, count)
  }
}
