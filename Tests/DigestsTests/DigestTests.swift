import Digests
import Foundation
import Testing

/// MD5, SHA-1 and SHA-256 against Python's hashlib (scripts/make_digest_fixtures.py).
@Suite struct DigestTests {
  struct Expected: Decodable {
    let md5: String
    let sha1: String
    let sha256: String
  }
  struct Pattern: Decodable {
    let length: Int
    let expected: Expected
    init(from decoder: any Decoder) throws {
      length = try decoder.container(keyedBy: Key.self).decode(Int.self, forKey: .length)
      expected = try Expected(from: decoder)
    }
    enum Key: CodingKey { case length }
  }
  struct Text: Decodable {
    let text: String
    let `repeat`: Int
    let expected: Expected
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      text = try container.decode(String.self, forKey: .text)
      `repeat` = try container.decode(Int.self, forKey: .repeat)
      expected = try Expected(from: decoder)
    }
    enum Key: CodingKey { case text, `repeat` }
  }
  struct Fixtures: Decodable {
    let pattern: [Pattern]
    let text: [Text]
  }

  let fixtures: Fixtures = {
    let url = Bundle.module.url(forResource: "Fixtures/digests", withExtension: "json")!
    return try! JSONDecoder().decode(Fixtures.self, from: Data(contentsOf: url))
  }()

  static func patternMessage(_ length: Int) -> [UInt8] {
    (0..<length).map { UInt8((7 * $0 + 3) % 256) }
  }

  func expectAll(_ message: [UInt8], _ expected: Expected, _ label: String) {
    #expect(MD5.hex(of: message) == expected.md5, "MD5 \(label)")
    #expect(SHA1.hex(of: message) == expected.sha1, "SHA-1 \(label)")
    #expect(SHA256.hex(of: message) == expected.sha256, "SHA-256 \(label)")
  }

  @Test func digestsMatchHashlibAtEveryPaddingBoundary() {
    #expect(fixtures.pattern.count == 16)
    for fixture in fixtures.pattern {
      expectAll(Self.patternMessage(fixture.length), fixture.expected, "length \(fixture.length)")
    }
  }

  @Test func digestsMatchTheStandardsExamplesAndUnicode() {
    #expect(fixtures.text.count == 7)
    for fixture in fixtures.text {
      let message = Array(repeating: Array(fixture.text.utf8), count: fixture.repeat).flatMap { $0 }
      expectAll(message, fixture.expected, "\(fixture.text.prefix(10)) × \(fixture.repeat)")
    }
  }

  @Test func theStandardsOwnExamplesAsPrinted() {
    // RFC 1321 appendix A.5 and FIPS 180's "abc", written out rather than read from the fixture.
    #expect(MD5.hex(of: Array("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
    #expect(SHA1.hex(of: Array("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test func updatesInPiecesGiveTheDigestOfTheWhole() {
    let message = Self.patternMessage(1000)
    var md5 = MD5(), sha1 = SHA1(), sha256 = SHA256()
    for cut in stride(from: 0, to: 1000, by: 37) {
      md5.update(message[cut..<min(cut + 37, 1000)])
      sha1.update(message[cut..<min(cut + 37, 1000)])
      sha256.update(message[cut..<min(cut + 37, 1000)])
    }
    let expected = fixtures.pattern.first { $0.length == 1000 }!.expected
    #expect(md5.hexDigest() == expected.md5)
    #expect(sha1.hexDigest() == expected.sha1)
    #expect(sha256.hexDigest() == expected.sha256)
  }
}
