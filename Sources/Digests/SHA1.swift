// SPDX-License-Identifier: Apache-2.0

/// SHA-1 (FIPS 180-4): LaunchDarkly buckets with the first 15 hexadecimal
/// digits of it. No security rests on it here, only agreement with the SDK.
public typealias SHA1 = MessageDigest<SHA1Compression>

/// SHA-1's compression function.
public struct SHA1Compression: BlockCompression {
  public static let bigEndian = true
  public private(set) var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]

  public init() {}

  public mutating func compress(_ block: [UInt8]) {
    var words = Self.words(of: block) + [UInt32](repeating: 0, count: 64)
    for index in 16..<80 {
      words[index] = (words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]).rotatedLeft(1)
    }
    var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
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
    for (index, value) in [a, b, c, d, e].enumerated() { state[index] &+= value }
  }
}
