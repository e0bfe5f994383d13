import Foundation

/// SplitMix64 with Box–Muller: a seeded stream of standard normals, the same on every run.
struct Normals {
  var state: UInt64
  private var spare: Double?

  init(seed: UInt64) {
    state = seed
  }

  private mutating func uniform() -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return (Double((z ^ (z >> 31)) >> 11) + 0.5) / Double(1 << 53)
  }

  mutating func next() -> Double {
    if let spare {
      self.spare = nil
      return spare
    }
    let radius = (-2 * log(uniform())).squareRoot(), angle = 2 * Double.pi * uniform()
    spare = radius * sin(angle)
    return radius * cos(angle)
  }
}
