import Testing

@testable import Simulation

/// The device loop's scratch memory (`ScratchArray`) is its one unsafe part.
/// These tests run in a debug build, where every access is bounds-checked;
/// scripts/check-scratch.sh (run by `make test`) compares that build's
/// results with the release build's, which has no checks, on random runs.
@Suite struct ScratchArrayTests {
  @Test func anArrayHoldsWhatIsWrittenAndFillsAndCopies() {
    let arena = ScratchArena()
    let numbers = arena.array(repeating: 7, count: 5)
    #expect(numbers.array == [7, 7, 7, 7, 7])
    numbers[2] = 9
    numbers[4] += 1
    #expect(numbers.array == [7, 7, 9, 7, 8])
    let copy = arena.array(repeating: 0, count: 6)
    copy.copy(from: numbers)
    #expect(copy.array == [7, 7, 9, 7, 8, 0])
    numbers.fill(-1)
    #expect(numbers.array == [-1, -1, -1, -1, -1])
    #expect(copy[2] == 9)
    let empty = arena.array(repeating: UInt8(1), count: 0)
    #expect(empty.array.isEmpty)
    #expect(Array(copy.buffer(1..<4)) == [7, 9, 7])
    #expect(copy.buffer(6..<6).isEmpty)
  }

  /// A mutating method on an element changes it in place.
  @Test func anElementIsMutatedInPlace() {
    let arena = ScratchArena()
    let tallies = arena.array([MetricTally(stepExponent: -32), MetricTally(stepExponent: -10)])
    tallies[1].add(3, expected: 2.5, isConversion: false)
    tallies[1].add(1, expected: nil, isConversion: false)
    #expect(tallies[0].outcomes.count == 0)
    #expect(tallies[1].outcomes.count == 2)
    #expect(tallies[1].outcomes.mean == 2)
    #expect(tallies[1].trueMeanSum.value == 2.5)
  }

  /// In the checked build an access outside the array stops the process
  /// instead of touching memory it does not own.
  @Test func anAccessOutOfBoundsTrapsInTheCheckedBuild() async {
    await #expect(processExitsWith: .failure) {
      let numbers = ScratchArena().array(repeating: 0, count: 3)
      numbers[3] = 1
    }
    await #expect(processExitsWith: .failure) {
      let numbers = ScratchArena().array(repeating: 0, count: 3)
      _ = numbers[-1]
    }
  }
}
