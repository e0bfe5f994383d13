// SPDX-License-Identifier: Apache-2.0

/// FNV-1a, 32 bits, over a string's UTF-16 code units: the hash GrowthBook's
/// SDKs bucket with (they hash JavaScript's `charCodeAt`, which is a UTF-16
/// code unit, so an ASCII id hashes as its bytes).
public enum FNV1a {
  public static func hash32(_ text: String) -> UInt32 {
    var hash: UInt32 = 0x811C_9DC5
    for unit in text.utf16 {
      hash = (hash ^ UInt32(unit)) &* 0x0100_0193
    }
    return hash
  }
}
