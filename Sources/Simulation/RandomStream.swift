/// A stream of random bits for one purpose of one device, as a SplitMix64
/// sequence whose start is derived from (seed, replication, device, purpose).
///
/// Because every stream is keyed by the device and not by the order in which
/// devices are simulated, any device can be replayed alone and a run gives the
/// same bits whatever the thread count, batch size or shard split.
@frozen
public struct RandomStream: RandomNumberGenerator, Sendable {
  @usableFromInline var state: UInt64

  @inlinable
  init(state: UInt64) {
    self.state = state
  }

  @inlinable
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// The SplitMix64 finaliser: a bijection of 64-bit words whose outputs pass
  /// as independent for inputs that differ in a single bit.
  @inlinable
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A double in [0, 1) from the top 53 bits of the next draw.
  @inlinable
  public mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  /// A double in (0, 1), never 0 or 1, for logarithms.
  @inlinable
  public mutating func nextOpenUnit() -> Double {
    (Double(next() >> 11) + 0.5) * 0x1p-53
  }

  /// True with probability `p`; draws nothing when `p` is 0 or 1.
  @inlinable
  public mutating func nextBernoulli(_ p: Double) -> Bool {
    if p >= 1 { return true }
    if p <= 0 { return false }
    return nextUnit() < p
  }
}

/// What a stream of a device is for. Each purpose has its own stream, so that
/// a change in how often one kind of draw happens never shifts another.
public enum RandomPurpose: UInt64, Sendable, CaseIterable {
  case token = 1
  case segment
  case adoption
  case launches
  case variants
  case display
  case outcomes
  case fetch
  case remoteAssignment
  case churn
  case serviceFetch
  case reinstall
  case enrollment
  case covariates
  case localValues
  case activation
  case install
  case updates
  case activity
  case sessions
}

/// The streams of one device in one replication of a run.
@frozen
public struct DeviceRandom: Sendable {
  @usableFromInline let key: UInt64

  @inlinable
  public init(seed: UInt64, replication: Int, device: Int) {
    var key = RandomStream.mix(seed ^ 0x6A09_E667_F3BC_C908)
    key = RandomStream.mix(key ^ UInt64(truncatingIfNeeded: replication) &* 0xD1B5_4A32_D192_ED03)
    key = RandomStream.mix(key ^ UInt64(truncatingIfNeeded: device) &* 0x8CB9_2BA7_2F3D_8DD7)
    self.key = key
  }

  @inlinable
  public func stream(_ purpose: RandomPurpose) -> RandomStream {
    RandomStream(state: RandomStream.mix(key ^ purpose.rawValue &* 0x9E37_79B9_7F4A_7C15))
  }

  /// The stream for `purpose` when the plan draws from it, else one never
  /// drawn from: deriving a stream costs a few multiplications at every
  /// device, for streams of services a plan may not have.
  @inlinable
  func stream(_ purpose: RandomPurpose, ifUsed isUsed: Bool) -> RandomStream {
    isUsed ? stream(purpose) : RandomStream(state: 0)
  }

  /// The seed of replication `replication` of a run with `seed`: replication 0
  /// uses the seed itself, so a single run and the first of many agree.
  public static func replicationSeed(_ seed: UInt64, replication: Int) -> UInt64 {
    replication == 0 ? seed : RandomStream.mix(seed ^ RandomStream.mix(UInt64(replication)))
  }
}
