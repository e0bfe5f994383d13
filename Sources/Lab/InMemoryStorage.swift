// SPDX-License-Identifier: Apache-2.0

/// A storage that lives as long as the object: for tests, previews and
/// simulations that rebuild a device's state on their own.
public final class InMemoryStorage: LabStorage {
  private var values: [String: String]

  public init(_ values: [String: String] = [:]) {
    self.values = values
  }

  public func value(forKey key: String) -> String? {
    values[key]
  }

  public func setValue(_ value: String?, forKey key: String) {
    values[key] = value
  }

  public func keys(withPrefix prefix: String) -> [String] {
    values.keys.filter { $0.hasPrefix(prefix) }.sorted()
  }

  /// Everything stored, for inspection.
  public var snapshot: [String: String] { values }
}
