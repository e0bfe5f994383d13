import Foundation

/// SplitMix64 with Box–Muller normals: a seeded stream, so that the engines' statistical tests draw the
/// same replications on every run.
struct SeededStream {
  var state: UInt64

  mutating func uniform() -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return (Double((z ^ (z >> 31)) >> 11) + 0.5) / Double(1 << 53)
  }

  mutating func normal() -> Double { (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform()) }
}
