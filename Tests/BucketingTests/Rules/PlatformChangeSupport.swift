import Bucketing
import Foundation

/// What the platforms' rule tests share: a count of the users a change moves,
/// and the binomial bound it is held to.
enum PlatformChange {
  static let users = (0..<20_000).map { "device-\($0)" }

  /// How many of `users` get a different answer from `after` than from `before`.
  static func moved(_ before: (String) -> String?, _ after: (String) -> String?) -> Int {
    users.filter { before($0) != after($0) }.count
  }

  /// Whether `count` of 20,000 is within 4.5 binomial standard errors of a share `p`.
  static func near(_ count: Int, _ p: Double) -> Bool {
    abs(Double(count) - 20_000 * p) <= 4.5 * (20_000 * p * (1 - p)).squareRoot()
  }
}
