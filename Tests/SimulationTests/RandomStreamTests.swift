import Testing

@testable import Simulation

@Suite struct RandomStreamTests {
  /// The launch loop's draws as bits (`nextBernoulliBits`) are the same draws
  /// as one `nextBernoulli` a day: the same bits for every probability and
  /// count, and the stream left at the same place, so the next draw agrees too.
  @Test(arguments: [0, 0.3, 0.5, 0.97, 1])
  func bitsAreTheDrawsOneAtATime(probability: Double) {
    for count in [0, 1, 2, 37, 63, 64] {
      var stream = DeviceRandom(seed: 11, replication: 2, device: count).stream(.launches)
      var oneAtATime = stream
      let bits = stream.nextBernoulliBits(probability, count: count)
      var expected: UInt64 = 0
      for index in 0..<count where oneAtATime.nextBernoulli(probability) { expected |= 1 << UInt64(index) }
      #expect(bits == expected, "p \(probability), \(count) draws")
      #expect(stream.next() == oneAtATime.next())
    }
  }

  @Test func certainAndImpossibleDrawsAreAllAndNoBits() {
    var stream = DeviceRandom(seed: 1, replication: 0, device: 0).stream(.launches)
    #expect(stream.nextBernoulliBits(1, count: 64) == .max)
    #expect(stream.nextBernoulliBits(1, count: 3) == 0b111)
    #expect(stream.nextBernoulliBits(0, count: 64) == 0)
  }
}
