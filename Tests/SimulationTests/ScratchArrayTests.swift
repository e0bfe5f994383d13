import Tallies
import Testing

@testable import Simulation

/// The device loop's scratch memory (`ScratchArray`) is its one unsafe part.
/// These tests run in a debug build, where every access is bounds-checked;
/// scripts/check-scratch.sh (run by `make test`) compares that build's
/// results with the release build's, which has no checks, on random runs.
///
/// An array owns its memory and cannot be copied, so no view of it can
/// outlive it: the compiler refuses a copy (`let other = numbers` consumes
/// `numbers`, which cannot be used again), which no test at run time can show.
@Suite struct ScratchArrayTests {
  @Test func anArrayHoldsWhatIsWrittenAndFillsAndCopies() {
    var numbers = ScratchArray(repeating: 7, count: 5)
    #expect(numbers.array == [7, 7, 7, 7, 7])
    numbers[2] = 9
    numbers[4] += 1
    #expect(numbers.array == [7, 7, 9, 7, 8])
    var copy = ScratchArray(repeating: 0, count: 6)
    copy.copy(from: numbers)
    #expect(copy.array == [7, 7, 9, 7, 8, 0])
    numbers.fill(-1)
    #expect(numbers.array == [-1, -1, -1, -1, -1])
    #expect(copy[2] == 9)
    let empty = ScratchArray(repeating: UInt8(1), count: 0)
    #expect(empty.array.isEmpty)
    #expect(empty.indices.isEmpty)
    #expect(ScratchArray([3, 1, 2]).array == [3, 1, 2])
    #expect(ScratchArray(repeating: [3, 1, 2], times: 3).array == [3, 1, 2, 3, 1, 2, 3, 1, 2])
    #expect(ScratchArray(repeating: [3, 1, 2], times: 0).array.isEmpty)
    #expect(ScratchArray(repeating: [Int](), times: 4).array.isEmpty)
  }

  /// A mutating method on an element changes it in place.
  @Test func anElementIsMutatedInPlace() {
    var tallies = ScratchArray([MetricTally(stepExponent: -32), MetricTally(stepExponent: -10)])
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
      var numbers = ScratchArray(repeating: 0, count: 3)
      numbers[3] = 1
    }
    await #expect(processExitsWith: .failure) {
      let numbers = ScratchArray(repeating: 0, count: 3)
      _ = numbers[-1]
    }
  }

  /// A copy longer than its target is refused, in every build.
  @Test func aCopyStaysWithinItsTarget() async {
    await #expect(processExitsWith: .failure) {
      var short = ScratchArray(repeating: 0, count: 2)
      short.copy(from: ScratchArray(repeating: 1, count: 3))
    }
  }
}
