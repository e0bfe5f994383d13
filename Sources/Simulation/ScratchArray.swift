/// The device loop's working memory: fixed-size arrays of plain values that
/// one `DeviceSimulator` allocates once and rewrites for each of its devices.
///
/// This is the simulation's only unsafe code, and it is here for speed. The
/// loop writes these arrays millions of times a second from inside a
/// mutating struct; as Swift arrays every write re-checked that the buffer
/// was uniquely referenced and every access checked its bounds, which took
/// about a third of the loop's time (`bench perf`, docs/performance.md).
/// A `ScratchArray` is a bare pointer and a count. Its subscript checks the
/// bounds in debug builds (`CHECKED_SCRATCH`, which the package sets for the
/// Simulation target in debug), so the test suite runs every scenario with
/// every access checked, and release builds run without the checks;
/// scripts/check-scratch.sh (in `make test`) compares the two builds'
/// results on random runs of every scenario.
@usableFromInline
struct ScratchArray<Element: BitwiseCopyable> {
  @usableFromInline let base: UnsafeMutablePointer<Element>
  @usableFromInline let count: Int

  fileprivate init(base: UnsafeMutablePointer<Element>, count: Int) {
    self.base = base
    self.count = count
  }

  /// The element in place, so that a mutating method on it (`MetricTally.add`)
  /// changes the scratch memory without a copy out and back.
  @inlinable
  subscript(index: Int) -> Element {
    @inline(__always) unsafeAddress {
      #if CHECKED_SCRATCH
        precondition(index >= 0 && index < count, "scratch index \(index) outside 0..<\(count)")
      #endif
      return UnsafePointer(base + index)
    }
    @inline(__always) nonmutating unsafeMutableAddress {
      #if CHECKED_SCRATCH
        precondition(index >= 0 && index < count, "scratch index \(index) outside 0..<\(count)")
      #endif
      return base + index
    }
  }

  var indices: Range<Int> { 0..<count }

  /// Sets every element to `value`.
  func fill(_ value: Element) {
    base.update(repeating: value, count: count)
  }

  /// Sets the first `other.count` elements to `other`'s.
  func copy(from other: ScratchArray<Element>) {
    precondition(other.count <= count, "a scratch copy stays within its target")
    base.update(from: other.base, count: other.count)
  }

  /// The elements in `range` as a buffer, for a function that reads a run of them.
  func buffer(_ range: Range<Int>) -> UnsafeBufferPointer<Element> {
    #if CHECKED_SCRATCH
      precondition(range.lowerBound >= 0 && range.upperBound <= count, "scratch range \(range) outside 0..<\(count)")
    #endif
    return UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
  }

  /// The elements as a Swift array, for observers and for handing counts over.
  var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }
}

/// Owns the memory of a simulator's scratch arrays and frees it with the
/// simulator: the arrays are views into it, valid while the arena lives.
final class ScratchArena {
  private var allocations: [UnsafeMutableRawPointer] = []

  /// A new array of `count` elements, each `value`.
  func array<Element: BitwiseCopyable>(repeating value: Element, count: Int) -> ScratchArray<Element> {
    let base = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
    base.initialize(repeating: value, count: max(count, 1))
    allocations.append(UnsafeMutableRawPointer(base))
    return ScratchArray(base: base, count: count)
  }

  /// A new array holding `elements`.
  func array<Element: BitwiseCopyable>(_ elements: [Element]) -> ScratchArray<Element> {
    let base = UnsafeMutablePointer<Element>.allocate(capacity: max(elements.count, 1))
    _ = UnsafeMutableBufferPointer(start: base, count: elements.count).initialize(from: elements)
    allocations.append(UnsafeMutableRawPointer(base))
    return ScratchArray(base: base, count: elements.count)
  }

  deinit {
    for allocation in allocations { allocation.deallocate() }
  }
}
