// SPDX-License-Identifier: Apache-2.0

import Foundation

/// An IP network of the remoteAddress strategy: an address with a prefix
/// length ("10.0.0.0/8"), or one address. An entry that is neither is
/// skipped, as the engine skips it.
struct UnleashNetwork: Sendable {
  /// The address's bytes: 4 for IPv4, 16 for IPv6.
  let bytes: [UInt8]
  let prefixLength: Int

  init?(_ text: String) {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard let address = Self.address(String(parts[0])) else { return nil }
    if parts.count == 2 {
      guard let length = Int(parts[1]), parts[1].allSatisfy(\.isNumber), (0...address.count * 8).contains(length) else { return nil }
      prefixLength = length
    } else {
      prefixLength = address.count * 8
    }
    bytes = address
  }

  /// Whether `address` (of the same family) lies in the network.
  func contains(_ address: [UInt8]) -> Bool {
    guard address.count == bytes.count else { return false }
    for bit in 0..<prefixLength where (address[bit / 8] ^ bytes[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 {
      return false
    }
    return true
  }

  /// An IPv4 address in four decimal parts without leading zeros, or an
  /// IPv6 address, as Rust's `IpAddr` parses them.
  static func address(_ text: String) -> [UInt8]? {
    if text.contains(":") {
      var storage = in6_addr()
      guard inet_pton(AF_INET6, text, &storage) == 1 else { return nil }
      return withUnsafeBytes(of: storage) { Array($0) }
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var result: [UInt8] = []
    for part in parts {
      guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }), part == "0" || part.first != "0",
        let value = UInt8(part)
      else { return nil }
      result.append(value)
    }
    return result
  }
}
