import Foundation
import Sharding
import Testing

/// Digests against Python's hashlib (scripts/make_sha256_fixtures.py).
@Suite struct SHA256Tests {
  struct Fixtures: Decodable {
    struct Pattern: Decodable {
      let length: Int
      let sha256: String
    }
    struct Text: Decodable {
      let text: String
      let `repeat`: Int
      let sha256: String
    }
    let pattern: [Pattern]
    let text: [Text]
  }

  let fixtures: Fixtures = {
    let url = Bundle.module.url(forResource: "Fixtures/sha256", withExtension: "json")!
    return try! JSONDecoder().decode(Fixtures.self, from: Data(contentsOf: url))
  }()

  @Test func digestsMatchHashlibAtEveryPaddingBoundary() {
    #expect(fixtures.pattern.count == 16)
    for fixture in fixtures.pattern {
      let message = (0..<fixture.length).map { UInt8((7 * $0 + 3) % 256) }
      #expect(SHA256.hex(of: message) == fixture.sha256, "length \(fixture.length)")
    }
  }

  @Test func digestsMatchFIPSExamplesAndUnicode() {
    for fixture in fixtures.text {
      let message = Array(repeating: Array(fixture.text.utf8), count: fixture.repeat).flatMap { $0 }
      #expect(SHA256.hex(of: message) == fixture.sha256, "\(fixture.text.prefix(10)) × \(fixture.repeat)")
    }
  }

  @Test func updatesInPiecesGiveTheDigestOfTheWhole() {
    let message = (0..<1000).map { UInt8((7 * $0 + 3) % 256) }
    var hash = SHA256()
    for cut in stride(from: 0, to: 1000, by: 37) { hash.update(message[cut..<min(cut + 37, 1000)]) }
    #expect(hash.hexDigest() == fixtures.pattern.first { $0.length == 1000 }?.sha256)
  }
}
