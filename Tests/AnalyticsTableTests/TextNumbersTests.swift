import Simulation
import Testing

@testable import AnalyticsTable

/// `TextNumbers` is the analysis's own hash table: it must number texts as a
/// dictionary would, through its growth, for any bytes.
struct TextNumbersTests {
  @Test func numbersTextsInOrderOfFirstAppearanceAsADictionaryWould() {
    var generator = DeviceRandom(seed: 14, replication: 0, device: 0).stream(.token)
    var numbers = TextNumbers()
    var reference: [[UInt8]: Int] = [:]
    var order: [[UInt8]] = []
    for _ in 0..<60_000 {
      // Short texts repeat often; a few are empty, long or not ASCII.
      let length = Int(generator.next() % 41)
      let alphabet: UInt64 = generator.next() % 8 == 0 ? 256 : 3
      let text = (0..<length).map { _ in UInt8(truncatingIfNeeded: 0x61 + generator.next() % alphabet) }
      let (number, isNew) = numbers.number(of: text[...])
      if let known = reference[text] {
        #expect(number == known && !isNew)
      } else {
        #expect(number == order.count && isNew)
        reference[text] = number
        order.append(text)
      }
    }
    #expect(numbers.count == order.count)
    #expect(order.count > 10_000)
    for (number, text) in order.enumerated() {
      #expect(Array(numbers.text(number)) == text)
      #expect(numbers.existingNumber(of: text[...]) == number)
    }
    #expect(numbers.existingNumber(of: Array("never seen, longer than any".utf8)[...]) == nil)
  }

  @Test func textsDifferingInOneByteOrInLengthAreDifferent() {
    var numbers = TextNumbers()
    let base = Array("device-0000000000000000".utf8)
    for index in base.indices {
      var text = base
      text[index] ^= 1
      #expect(numbers.number(of: text[...]).isNew)
    }
    #expect(numbers.number(of: base[...]).isNew)
    #expect(numbers.number(of: base.dropLast()).isNew)
    #expect(numbers.number(of: base + [0]).isNew)
    #expect(numbers.number(of: [][...]).isNew)
    #expect(!numbers.number(of: base[...]).isNew)
    #expect(!numbers.number(of: [][...]).isNew)
    #expect(numbers.count == base.count + 4)
  }

  /// A second table listing the texts in the order they were numbered (the
  /// outcomes after the events) finds each by its neighbour, with the right number.
  @Test func textsLookedUpInTheirOrderAreFoundWithTheirNumbers() {
    var numbers = TextNumbers()
    let texts = (0..<5_000).map { Array("device-\($0 * 7919 % 5_000)".utf8) }
    for text in texts { _ = numbers.number(of: text[...]) }
    _ = numbers.number(of: Array("another".utf8)[...])
    for (number, text) in texts.enumerated() {
      for _ in 0..<2 {
        let found = numbers.number(of: text[...])
        #expect(found.number == number && !found.isNew)
      }
    }
    #expect(numbers.count == texts.count + 1)
  }

  /// A slice that does not start at its array's first byte (a field of a row).
  @Test func findsAFieldInsideALongerBuffer() {
    var numbers = TextNumbers()
    let row = Array("x,abc,y".utf8)
    let (number, _) = numbers.number(of: Array("abc".utf8)[...])
    #expect(numbers.existingNumber(of: row[2..<5]) == number)
    #expect(!numbers.number(of: row[2..<5]).isNew)
  }
}
