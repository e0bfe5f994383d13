// SPDX-License-Identifier: Apache-2.0

import Lab

/// A small, fast, seeded random number generator (SplitMix64), so that tests
/// that draw tokens and variants give the same results on every run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A generator that replays the given values, for tests that must control
/// exactly which variant a draw selects.
public struct ScriptedGenerator: RandomNumberGenerator, Sendable {
  private var values: [UInt64]

  public init(_ values: [UInt64]) {
    self.values = values
  }

  /// - Precondition: values remain; running out means the code under test drew
  ///   more often than the test expected.
  public mutating func next() -> UInt64 {
    precondition(!values.isEmpty, "ScriptedGenerator ran out of values")
    return values.removeFirst()
  }

  /// How many values were not drawn.
  public var remaining: Int { values.count }
}
