import Foundation
import Lab
import LabTestKit
import Testing

@Suite struct ActiveExperimentsTokenTests {
  @Test func bitsMapToTheUnitIntervalByTheirTop53Bits() {
    #expect(ActiveExperimentsToken(bits: 0).value == 0)
    #expect(ActiveExperimentsToken(bits: 1 << 63).value == 0.5)
    #expect(ActiveExperimentsToken(bits: .max).value == 1 - 0x1p-53)
    #expect(ActiveExperimentsToken(bits: 0x7FF).value == 0)
    #expect(ActiveExperimentsToken(bits: 0x800).value == 0x1p-53)
  }

  @Test func theTokenIsGeneratedOnceAndThenReadBack() throws {
    let storage = InMemoryStorage()
    var random = ScriptedGenerator([1 << 62])
    let first = try ActiveExperimentsToken.load(from: storage, generatingWith: &random)
    #expect(first.value == 0.25)
    #expect(storage.value(forKey: ActiveExperimentsToken.storageKey) == "0.25")
    let second = try ActiveExperimentsToken.load(from: storage, generatingWith: &random)
    #expect(second == first)
    #expect(random.remaining == 0)
  }

  @Test func aCorruptStoredTokenIsAnErrorNotANewToken() {
    let storage = InMemoryStorage([ActiveExperimentsToken.storageKey: "1.5"])
    var random = SeededGenerator(seed: 1)
    #expect(throws: StorageError(key: ActiveExperimentsToken.storageKey, value: "1.5", expected: "a number in [0, 1]")) {
      try ActiveExperimentsToken.load(from: storage, generatingWith: &random)
    }
  }

  @Test func tokensAreUniform() {
    var random = SeededGenerator(seed: 99)
    var counts = [Int](repeating: 0, count: 10)
    for _ in 0..<50_000 {
      counts[Int(ActiveExperimentsToken(bits: random.next()).value * 10)] += 1
    }
    for count in counts {
      #expect(withinBinomialBound(count, of: 50_000, p: 0.1))
    }
  }

  @Test func theFileStorageKeepsTheTokenAcrossLaunches() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lab-token-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    var random = SeededGenerator(seed: 12)
    let first = try ActiveExperimentsToken.load(from: FileStorage(url: url), generatingWith: &random)
    let second = try ActiveExperimentsToken.load(from: FileStorage(url: url), generatingWith: &random)
    #expect(first == second)
  }
}
