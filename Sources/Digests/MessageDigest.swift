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

  /// The digest of `bytes`, in one pass: the vendors' hashes of short keys
  /// take this path once per decision.
  @inlinable
  public static func digest<Bytes: Sequence>(of bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
    output(chain(of: bytes))
  }

  /// The digest of `bytes` as the algorithm's final state words, before
  /// they are written out as bytes: the buckets read their first words.
  @inlinable
  public static func words<Bytes: Sequence>(of bytes: Bytes) -> [UInt32] where Bytes.Element == UInt8 {
    chain(of: bytes).state
  }

  @inlinable
  static func chain<Bytes: Sequence>(of bytes: Bytes) -> Compression where Bytes.Element == UInt8 {
    var message: [UInt8] = []
    message.reserveCapacity(bytes.underestimatedCount + 72)
    message.append(contentsOf: bytes)
    var compression = Compression()
    pad(&message, length: UInt64(message.count))
    compress(message, into: &compression)
    return compression
  }

  /// Takes more bytes.
  public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    pending.reserveCapacity(128)
    for byte in bytes {
      pending.append(byte)
      length &+= 1
      if pending.count == 64 {
        Self.compress(pending, into: &compression)
        pending.removeAll(keepingCapacity: true)
      }
    }
  }

  /// The digest of the bytes taken so far.
  public func digest() -> [UInt8] {
    var final = self
    Self.pad(&final.pending, length: length)
    Self.compress(final.pending, into: &final.compression)
    return Self.output(final.compression)
  }

  /// The last block's padding: 0x80, zeros, and the message's length in bits. The zeros (at most
  /// 63) are copied from a zero block in one piece rather than appended one at a time: a caller
  /// built with libFuzzer's comparison tracing (the vendors' SDK ports) traced every byte.
  @inlinable
  static func pad(_ tail: inout [UInt8], length: UInt64) {
    let bits = length &* 8
    let zeros = (119 - tail.count % 64) % 64
    tail.reserveCapacity(tail.count + zeros + 9)
    tail.append(0x80)
    withUnsafeBytes(of: SIMD64<UInt8>()) { block in tail.append(contentsOf: UnsafeRawBufferPointer(rebasing: block[..<zeros])) }
    let lengthBytes = Compression.bigEndian ? bits.bigEndian : bits.littleEndian
    withUnsafeBytes(of: lengthBytes) { tail.append(contentsOf: $0) }
  }

  /// Folds whole blocks of `bytes` into `compression`.
  @inlinable
  static func compress(_ bytes: [UInt8], into compression: inout Compression) {
    bytes.withUnsafeBytes { raw in
      for start in stride(from: 0, to: raw.count - 63, by: 64) {
        compression.compress(UnsafeRawBufferPointer(rebasing: raw[start..<start + 64]))
      }
    }
  }

  @inlinable
  static func output(_ compression: Compression) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(compression.state.count * 4)
    for word in compression.state {
      for index in 0..<4 {
        bytes.append(UInt8(truncatingIfNeeded: word >> (Compression.bigEndian ? 24 - 8 * UInt32(index) : 8 * UInt32(index))))
      }
    }
    return bytes
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
  mutating func compress(_ block: UnsafeRawBufferPointer)
}

extension UnsafeRawBufferPointer {
  /// Word `index` of a 64-byte block, read big-endian (SHA).
  @inlinable @inline(__always)
  func bigEndianWord(_ index: Int) -> UInt32 {
    UInt32(bigEndian: loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
  }

  /// Word `index` of a 64-byte block, read little-endian (MD5).
  @inlinable @inline(__always)
  func littleEndianWord(_ index: Int) -> UInt32 {
    UInt32(littleEndian: loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
  }
}

extension UInt32 {
  @inlinable @inline(__always)
  func rotatedRight(_ count: UInt32) -> UInt32 {
    self >> count | self << (32 - count)
  }

  @inlinable @inline(__always)
  func rotatedLeft(_ count: UInt32) -> UInt32 {
    self << count | self >> (32 - count)
  }
}
