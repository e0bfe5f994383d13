import Foundation

extension Array where Element: Sendable {
  /// `transform` of each element, in order, the elements on as many threads
  /// as the machine has cores: each result lands in its own place, so the
  /// order and the results are those of a plain `map`.
  func concurrentMap<Transformed: Sendable>(_ transform: @Sendable (Element) -> Transformed) -> [Transformed] {
    guard count > 1 else { return map(transform) }
    let results = ResultSlots<Transformed>(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { index in results.fill(index, with: transform(self[index])) }
    return results.values
  }
}

/// A place for each of a concurrent map's results.
///
/// `@unchecked Sendable`: each place is filled once, by one thread, and read
/// only after every thread is done (`DispatchQueue.concurrentPerform` returns).
private final class ResultSlots<Value>: @unchecked Sendable {
  private let slots: UnsafeMutablePointer<Value?>
  private let count: Int

  init(count: Int) {
    slots = UnsafeMutablePointer<Value?>.allocate(capacity: count)
    slots.initialize(repeating: nil, count: count)
    self.count = count
  }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
  }

  func fill(_ index: Int, with value: Value) {
    slots[index] = value
  }

  var values: [Value] {
    (0..<count).map { slots[$0]! }
  }
}
