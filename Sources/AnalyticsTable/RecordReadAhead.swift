import Foundation

/// Splits a CSV file into records on a thread of its own, a batch ahead of
/// the thread that handles the rows, so that the two take both cores. The
/// handling thread sees every record in file order, so reading ahead changes
/// no count: only when the work is done. Three batches go back and forth
/// between the threads and are reused, so memory stays at a few thousand
/// records whatever the file's size.
///
/// `@unchecked Sendable`: the queues are touched only under `condition`, and
/// `reader` only by the reading thread once it has started.
final class RecordReadAhead: @unchecked Sendable {
  /// Records in file order, with what the reading thread found out about them.
  struct Batch {
    var records: [CSVRecordReader.Record] = []
    /// By record, whether every field is valid UTF-8.
    var isUTF8: [Bool] = []
    var count = 0
    /// What ended the file's reading after this batch's records: a record
    /// that is not CSV. Nil when the file ended, or for a batch before the last.
    var error: CSVRecordReader.SyntaxError?
    var isLast = false
  }

  /// Records per batch: enough to make the hand-over rare, few enough to keep a batch in cache.
  private static let batchSize = 2048

  private let condition = NSCondition()
  private var ready: [Batch] = []
  private var free: [Batch] = [Batch(), Batch(), Batch()]
  private var stopping = false
  private var readingEnded = false
  private var reader: CSVRecordReader

  /// Starts reading from where `reader` stands (after the header).
  init(_ reader: CSVRecordReader) {
    self.reader = reader
    Thread { [self] in read() }.start()
  }

  /// The next batch, in file order; nil after the last. Give it back with `recycle`.
  func next() -> Batch? {
    condition.lock()
    defer { condition.unlock() }
    while ready.isEmpty {
      if readingEnded { return nil }
      condition.wait()
    }
    return ready.removeFirst()
  }

  /// Returns a handled batch for the reading thread to fill again.
  func recycle(_ batch: consuming Batch) {
    condition.lock()
    free.append(batch)
    condition.signal()
    condition.unlock()
  }

  /// Stops the reading thread, and waits until it has stopped: call before
  /// the file's reader goes, whether every batch was handled or not.
  func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    while !readingEnded { condition.wait() }
    condition.unlock()
  }

  /// The reading thread: fills free batches until the file ends, a record is
  /// not CSV, or `stop` is called.
  private func read() {
    while var batch = takeFree() {
      batch.count = 0
      batch.error = nil
      batch.isLast = false
      while batch.count < Self.batchSize {
        if batch.records.count == batch.count {
          batch.records.append(CSVRecordReader.Record())
          batch.isUTF8.append(true)
        }
        do {
          guard try reader.next(into: &batch.records[batch.count]) else {
            batch.isLast = true
            break
          }
        } catch {
          batch.error = error
          batch.isLast = true
          break
        }
        batch.isUTF8[batch.count] = batch.records[batch.count].isUTF8
        batch.count += 1
      }
      let isLast = batch.isLast
      condition.lock()
      ready.append(batch)
      if isLast { readingEnded = true }
      condition.broadcast()
      condition.unlock()
      if isLast { return }
    }
    condition.lock()
    readingEnded = true
    condition.broadcast()
    condition.unlock()
  }

  /// A batch to fill, waiting for one; nil once `stop` is called.
  private func takeFree() -> Batch? {
    condition.lock()
    defer { condition.unlock() }
    while free.isEmpty && !stopping { condition.wait() }
    return stopping ? nil : free.removeFirst()
  }
}
