// SPDX-License-Identifier: Apache-2.0

import Foundation

/// MD5 (RFC 1321): Eppo assigns shards from the first four bytes of it. No
/// security rests on it here, only agreement with the SDK.
public typealias MD5 = MessageDigest<MD5Compression>

/// MD5's compression function.
public struct MD5Compression: BlockCompression {
  public static let bigEndian = false
  public var state: [UInt32] { chain }
  /// The chaining state, updated block by block.
  @usableFromInline var chain: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476]

  public init() {}

  @inlinable
  public mutating func compress(_ block: UnsafeRawBufferPointer) {
    var (a, b, c, d) = (chain[0], chain[1], chain[2], chain[3])
    Self.sines.withUnsafeBufferPointer { sines in
      Self.shifts.withUnsafeBufferPointer { shifts in
        for index in 0..<64 {
          let (mix, word): (UInt32, Int) =
            switch index {
            case 0..<16: ((b & c) | (~b & d), index)
            case 16..<32: ((d & b) | (~d & c), (5 * index + 1) % 16)
            case 32..<48: (b ^ c ^ d, (3 * index + 5) % 16)
            default: (c ^ (b | ~d), (7 * index) % 16)
            }
          let sum = a &+ mix &+ sines[index] &+ block.littleEndianWord(word)
          (a, d, c, b) = (d, c, b, b &+ sum.rotatedLeft(shifts[(index / 16) * 4 + index % 4]))
        }
      }
    }
    chain[0] &+= a; chain[1] &+= b; chain[2] &+= c; chain[3] &+= d
  }

  /// Each round's four rotations, used in turn.
  @usableFromInline static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

  /// The integer parts of 2³² × |sin(i + 1)|.
  @usableFromInline static let sines: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64((abs(sin(Double($0 + 1))) * 4_294_967_296).rounded(.down))) }
}
