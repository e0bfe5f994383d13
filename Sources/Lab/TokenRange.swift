// SPDX-License-Identifier: Apache-2.0

/// The part of [0, 1] in which an experiment is active for a device's
/// active-experiments token.
///
/// Ranges are half-open, `lower ..< upper`, except that a range whose upper
/// bound is 1 also holds 1 itself. Half-open ranges tile [0, 1] without
/// overlap, so `[0.1, 0.3)` and `[0.3, 0.5)` can share keys; and every
/// token, 1 included, falls in exactly one range of a tiling that ends at 1.
/// See docs/rules/TokenRangeBoundaries.md.
public struct TokenRange: Hashable, Sendable, BitwiseCopyable {
  public let lower: Double
  public let upper: Double

  /// The whole of [0, 1]: the experiment is active on every device.
  public static let all = TokenRange(uncheckedLower: 0, upper: 1)

  /// Creates the range `lower ..< upper` (or `lower ... 1` when `upper` is 1).
  ///
  /// - Throws: `TokenRangeError` unless `0 <= lower < upper <= 1`.
  public init(lower: Double, upper: Double) throws(TokenRangeError) {
    guard lower.isFinite, upper.isFinite, lower >= 0, upper <= 1 else {
      throw .outsideUnitInterval(lower: lower, upper: upper)
    }
    guard lower < upper else { throw .empty(lower: lower, upper: upper) }
    self.init(uncheckedLower: lower, upper: upper)
  }

  private init(uncheckedLower lower: Double, upper: Double) {
    self.lower = lower
    self.upper = upper
  }

  /// Whether an experiment with this range is active on a device with `token`.
  @inlinable
  public func contains(_ token: Double) -> Bool {
    token >= lower && (token < upper || (upper == 1 && token == 1))
  }

  /// Whether some token lies in both ranges: then two experiments with these
  /// ranges can be active on the same device.
  public func overlaps(_ other: TokenRange) -> Bool {
    Swift.max(lower, other.lower) < Swift.min(upper, other.upper)
  }

  /// The tokens both ranges hold, or `nil` when they are disjoint.
  public func intersection(_ other: TokenRange) -> TokenRange? {
    guard overlaps(other) else { return nil }
    return TokenRange(uncheckedLower: Swift.max(lower, other.lower), upper: Swift.min(upper, other.upper))
  }
}

extension TokenRange: CustomStringConvertible {
  public var description: String {
    func bound(_ value: Double) -> String {
      value.rounded() == value ? String(Int(value)) : "\(value)"
    }
    return upper == 1 ? "[\(bound(lower)), 1]" : "[\(bound(lower)), \(bound(upper)))"
  }
}

/// Why a pair of bounds is not a token range.
public enum TokenRangeError: Error, Hashable, Sendable, CustomStringConvertible {
  case outsideUnitInterval(lower: Double, upper: Double)
  case empty(lower: Double, upper: Double)

  public var description: String {
    switch self {
    case .outsideUnitInterval(let lower, let upper):
      return "[\(lower), \(upper)] must lie within [0, 1]"
    case .empty(let lower, let upper):
      return "[\(lower), \(upper)] is empty: the lower bound must be less than the upper bound"
    }
  }
}
