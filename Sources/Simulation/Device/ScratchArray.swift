/// The device loop's working memory: a fixed-size array of plain values that
/// one part of a `DeviceSimulator` allocates once and rewrites for each of its
/// devices.
///
/// This is the simulation's only unsafe code, and it is here for speed. The
/// loop writes these arrays millions of times a second from inside a
/// mutating struct; as Swift arrays every write re-checked that the buffer
/// was uniquely referenced and every access checked its bounds, which took
/// about a third of the loop's time (`bench perf`, docs/performance.md).
///
/// A `ScratchArray` owns its memory and cannot be copied, so nothing can hold
/// on to the memory once the array is gone: it is freed when its owner (a
/// part of the simulator) is, and there are no views of it to outlive it.
/// Its subscript checks the bounds in debug builds (`CHECKED_SCRATCH`, which
/// the package sets for the Simulation target in debug), so the test suite
/// runs every scenario with every access checked, and release builds run
/// without the checks; scripts/check-scratch.sh (in `make test`) compares
/// the two builds' results on random runs of every scenario.
struct ScratchArray<Element: BitwiseCopyable>: ~Copyable {
  private let base: UnsafeMutablePointer<Element>
  let count: Int

  /// An array of `count` elements, each `value`.
  init(repeating value: Element, count: Int) {
    base = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
    base.initialize(repeating: value, count: max(count, 1))
    self.count = count
  }

  /// An array holding `elements`.
  init(_ elements: [Element]) {
    base = UnsafeMutablePointer<Element>.allocate(capacity: max(elements.count, 1))
    _ = UnsafeMutableBufferPointer(start: base, count: elements.count).initialize(from: elements)
    count = elements.count
  }

  /// `block`'s elements `times` over, one block after another: a part's
  /// tallies of every metric for each of its cells.
  init(repeating block: [Element], times: Int) {
    precondition(times >= 0, "a block repeats zero or more times")
    count = block.count * times
    base = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
    for copy in 0..<times {
      _ = UnsafeMutableBufferPointer(start: base + copy * block.count, count: block.count).initialize(from: block)
    }
  }

  deinit {
    base.deallocate()
  }

  /// The element in place, so that a mutating method on it (`MetricTally.add`)
  /// changes the scratch memory without a copy out and back.
  subscript(index: Int) -> Element {
    @inline(__always) unsafeAddress {
      #if CHECKED_SCRATCH
        precondition(index >= 0 && index < count, "scratch index \(index) outside 0..<\(count)")
      #endif
      return UnsafePointer(base + index)
    }
    @inline(__always) unsafeMutableAddress {
      #if CHECKED_SCRATCH
        precondition(index >= 0 && index < count, "scratch index \(index) outside 0..<\(count)")
      #endif
      return base + index
    }
  }

  var indices: Range<Int> { 0..<count }

  /// Sets every element to `value`.
  mutating func fill(_ value: Element) {
    base.update(repeating: value, count: count)
  }

  /// Sets the elements in `range` to `value`.
  mutating func fill(_ value: Element, in range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "a scratch fill stays within the array")
    (base + range.lowerBound).update(repeating: value, count: range.count)
  }

  /// Sets the first `other.count` elements to `other`'s.
  mutating func copy(from other: borrowing ScratchArray<Element>) {
    precondition(other.count <= count, "a scratch copy stays within its target")
    base.update(from: other.base, count: other.count)
  }

  /// The elements as a Swift array, for observers and for handing counts over.
  var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
