// SPDX-License-Identifier: Apache-2.0

/// MurmurHash3, x86 32-bit variant (Austin Appleby, public domain), over a
/// string's UTF-8 bytes: the hash Optimizely buckets with.
public enum MurmurHash3 {
  /// The 32-bit hash of `text`'s UTF-8 bytes.
  public static func x86_32(_ text: String, seed: UInt32) -> UInt32 {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { x86_32(UnsafeBufferPointer($0), seed: seed) }
  }

  /// The 32-bit hash of `bytes`.
  public static func x86_32(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt32) -> UInt32 {
    let c1: UInt32 = 0xCC9E_2D51, c2: UInt32 = 0x1B87_3593
    var hash = seed
    let blocks = bytes.count / 4
    for block in 0..<blocks {
      let offset = block * 4
      var k = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
        | UInt32(bytes[offset + 3]) << 24
      k &*= c1
      k = k << 15 | k >> 17
      k &*= c2
      hash ^= k
      hash = hash << 13 | hash >> 19
      hash = hash &* 5 &+ 0xE654_6B64
    }
    var tail: UInt32 = 0
    let rest = bytes.count & 3, start = blocks * 4
    if rest >= 3 { tail ^= UInt32(bytes[start + 2]) << 16 }
    if rest >= 2 { tail ^= UInt32(bytes[start + 1]) << 8 }
    if rest >= 1 {
      tail ^= UInt32(bytes[start])
      tail &*= c1
      tail = tail << 15 | tail >> 17
      tail &*= c2
      hash ^= tail
    }
    hash ^= UInt32(truncatingIfNeeded: bytes.count)
    hash ^= hash >> 16
    hash &*= 0x85EB_CA6B
    hash ^= hash >> 13
    hash &*= 0xC2B2_AE35
    hash ^= hash >> 16
    return hash
  }
}
