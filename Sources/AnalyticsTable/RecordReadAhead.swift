import Foundation

/// Splits a CSV file into records on a thread of its own, a batch ahead of
/// the thread that handles the rows, so that the two take both cores. The
/// reading thread also numbers each record's key, the device id (a million
/// ids outgrow the cache, so that a lookup waits on memory), and the
/// handling thread reads the number. The
/// handling thread sees every record in file order, so reading ahead changes
/// no count: only when the work is done. Eight batches go back and forth
/// between the threads and are reused (enough that a moment's difference in
/// the threads' speed stalls neither), so memory stays at some thousands of
/// records whatever the file's size.
///
/// `@unchecked Sendable`: the queues and `numbers` are touched only under
/// `condition`, and `reader` only by the reading thread once it has started.
final class RecordReadAhead: @unchecked Sendable {
  /// Records in file order, with what the reading thread found out about them.
  struct Batch {
    var records = CSVRecordReader.Records()
    /// By record, whether every field is valid UTF-8.
    var isUTF8: [Bool] = []
    /// By record, its key's number, or −1 for a record without the key's field.
    var keys: [Int] = []
    /// What ended the file's reading after this batch's records: a record
    /// that is not CSV. Nil when the file ended, or for a batch before the last.
    var error: CSVRecordReader.SyntaxError?
    var isLast = false

  }

  /// Records per batch: enough to make the hand-over rare, few enough to keep a batch in cache.
  private static let batchSize = 2048

  private let condition = NSCondition()
  private var ready: [Batch] = []
  private var free = Array(repeating: Batch(), count: 8)
  private var stopping = false
  private var readingEnded = false
  /// The file's reader after the header. The reading thread reads from a
  /// local copy, which needs no check of exclusive access at each record.
  private let reader: CSVRecordReader
  /// The key's field in a record.
  private let keyPosition: Int
  /// The keys' numbers: the reading thread's while it reads, then given back.
  private var numbers: TextNumbers

  /// Starts reading from where `reader` stands (after the header), numbering
  /// the field at `keyPosition` of each record on from `numbers`.
  init(_ reader: CSVRecordReader, keyPosition: Int, numbers: consuming TextNumbers) {
    self.reader = reader
    self.keyPosition = keyPosition
    self.numbers = numbers
    Thread { [self] in read() }.start()
  }

  /// The keys' numbers once the reading has stopped (`stop`), which go on
  /// from those given: every key of the records read so far.
  func takeNumbers() -> TextNumbers {
    condition.lock()
    defer { condition.unlock() }
    precondition(readingEnded, "the numbers are the reading thread's until it stops")
    return numbers
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
    var reader = reader
    var numbers = takeNumbersToRead()
    while var batch = takeFree() {
      batch.records.removeAll()
      batch.isUTF8.removeAll(keepingCapacity: true)
      batch.keys.removeAll(keepingCapacity: true)
      batch.error = nil
      batch.isLast = false
      while batch.records.count < Self.batchSize {
        do {
          guard try reader.next(into: &batch.records) else {
            batch.isLast = true
            break
          }
        } catch {
          batch.error = error
          batch.isLast = true
          break
        }
        let record = batch.records.count - 1
        batch.isUTF8.append(batch.records.isUTF8(record))
        batch.keys.append(
          keyPosition < batch.records.fieldCount(of: record)
            ? batch.records.withField(keyPosition, of: record) { numbers.number(of: $0).number } : -1)
      }
      let isLast = batch.isLast
      condition.lock()
      ready.append(batch)
      if isLast {
        self.numbers = numbers
        readingEnded = true
      }
      condition.broadcast()
      condition.unlock()
      if isLast { return }
    }
    condition.lock()
    self.numbers = numbers
    readingEnded = true
    condition.broadcast()
    condition.unlock()
  }

  /// The numbers to go on from, leaving none behind that a copy would share.
  private func takeNumbersToRead() -> TextNumbers {
    condition.lock()
    defer { condition.unlock() }
    var taken = TextNumbers()
    swap(&taken, &numbers)
    return taken
  }

  /// A batch to fill, waiting for one; nil once `stop` is called.
  private func takeFree() -> Batch? {
    condition.lock()
    defer { condition.unlock() }
    while free.isEmpty && !stopping { condition.wait() }
    return stopping ? nil : free.removeFirst()
  }
}
