// SPDX-License-Identifier: Apache-2.0

/// SHA-1 (FIPS 180-4): LaunchDarkly buckets with the first 15 hexadecimal
/// digits of it. No security rests on it here, only agreement with the SDK.
public typealias SHA1 = MessageDigest<SHA1Compression>

/// SHA-1's compression function.
public struct SHA1Compression: BlockCompression {
  public static let bigEndian = true
  public var state: [UInt32] { chain }
  /// The chaining state, updated block by block.
  @usableFromInline var chain: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]

  public init() {}

  @inlinable
  public mutating func compress(_ block: UnsafeRawBufferPointer) {
    var (a, b, c, d, e) = (chain[0], chain[1], chain[2], chain[3], chain[4])
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { words in
      for index in 0..<16 { words[index] = block.bigEndianWord(index) }
      for index in 16..<80 {
        words[index] = (words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]).rotatedLeft(1)
      }
      for index in 0..<80 {
        let (mix, constant): (UInt32, UInt32) =
          switch index {
          case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
          case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
          case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
          default: (b ^ c ^ d, 0xCA62_C1D6)
          }
        (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, a.rotatedLeft(5) &+ mix &+ e &+ constant &+ words[index])
      }
    }
    chain[0] &+= a; chain[1] &+= b; chain[2] &+= c; chain[3] &+= d; chain[4] &+= e
  }
}
