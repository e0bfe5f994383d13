// SPDX-License-Identifier: Apache-2.0

/// The frame MD5, SHA-1 and SHA-256 share (Merkle–Damgård): the message in
/// 64-byte blocks, each folded into a chaining state by the algorithm's
/// compression; the last block padded with a 0x80 byte, zeros and the
/// message's length in bits. Only the compression and the byte order differ.
public struct MessageDigest<Compression: BlockCompression>: Sendable {
  private var compression = Compression()
  /// Bytes not yet compressed: always fewer than one block.
  private var pending: [UInt8] = []
  /// Bytes taken so far.
  private var length: UInt64 = 0

  public init() {}

  /// The digest of `bytes` as lowercase hexadecimal digits.
  public static func hex<Bytes: Sequence>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
    var digest = Self()
    digest.update(bytes)
    return digest.hexDigest()
  }

  /// The digest of `bytes`.
  public static func digest<Bytes: Sequence>(of bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
    var digest = Self()
    digest.update(bytes)
    return digest.digest()
  }

  /// Takes more bytes.
  public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    pending.reserveCapacity(64)
    for byte in bytes {
      pending.append(byte)
      length &+= 1
      if pending.count == 64 {
        compression.compress(pending)
        pending.removeAll(keepingCapacity: true)
      }
    }
  }

  /// The digest of the bytes taken so far.
  public func digest() -> [UInt8] {
    var final = self
    let bits = length &* 8
    final.pending.append(0x80)
    while final.pending.count % 64 != 56 { final.pending.append(0) }
    let lengthBytes = (0..<8).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
    final.pending += Compression.bigEndian ? lengthBytes.reversed() : lengthBytes
    for start in stride(from: 0, to: final.pending.count, by: 64) {
      final.compression.compress(Array(final.pending[start..<(start + 64)]))
    }
    return final.compression.state.flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> (Compression.bigEndian ? 24 - 8 * $0 : 8 * $0)) }
    }
  }

  /// The digest as lowercase hexadecimal digits.
  public func hexDigest() -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: digest().flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
  }
}

/// One algorithm's chaining state and the function that folds a 64-byte block into it.
public protocol BlockCompression: Sendable {
  /// Whether words, the length and the digest are read and written big-endian (SHA) or little-endian (MD5).
  static var bigEndian: Bool { get }
  /// The chaining state, which is the digest once the last block is in.
  var state: [UInt32] { get }
  /// The initial state.
  init()
  /// Folds a 64-byte block into the state.
  mutating func compress(_ block: [UInt8])
}

extension BlockCompression {
  /// The block's sixteen 32-bit words in the algorithm's byte order.
  static func words(of block: [UInt8]) -> [UInt32] {
    (0..<16).map { index in
      (0..<4).reduce(0) { word, byte in
        bigEndian ? word << 8 | UInt32(block[4 * index + byte]) : word | UInt32(block[4 * index + byte]) << (8 * byte)
      }
    }
  }
}

extension UInt32 {
  @inline(__always)
  func rotatedRight(_ count: UInt32) -> UInt32 {
    self >> count | self << (32 - count)
  }

  @inline(__always)
  func rotatedLeft(_ count: UInt32) -> UInt32 {
    self << count | self >> (32 - count)
  }
}
