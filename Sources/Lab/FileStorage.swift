// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A storage kept in one JSON file, rewritten atomically on every change so
/// that a crash never leaves half a file behind.
public final class FileStorage: LabStorage {
  public let url: URL
  private var values: [String: String]

  /// Opens the storage at `url`, starting empty when the file does not exist.
  ///
  /// - Throws: `FileStorageError.unreadable` when the file exists but is not a
  ///   JSON object of strings.
  public init(url: URL) throws {
    self.url = url
    guard FileManager.default.fileExists(atPath: url.path) else {
      values = [:]
      return
    }
    do {
      values = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: url))
    } catch {
      throw FileStorageError.unreadable(path: url.path, reason: "\(error)")
    }
  }

  public func value(forKey key: String) -> String? {
    values[key]
  }

  public func setValue(_ value: String?, forKey key: String) throws {
    var updated = values
    updated[key] = value
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    do {
      try encoder.encode(updated).write(to: url, options: .atomic)
    } catch {
      throw FileStorageError.unwritable(path: url.path, reason: "\(error)")
    }
    values = updated
  }

  public func keys(withPrefix prefix: String) -> [String] {
    values.keys.filter { $0.hasPrefix(prefix) }.sorted()
  }
}

/// Why a `FileStorage` could not read or write its file.
public enum FileStorageError: Error, Hashable, Sendable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case unwritable(path: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "cannot read Lab storage at \(path): \(reason). Fix or remove the file."
    case .unwritable(let path, let reason):
      return "cannot write Lab storage at \(path): \(reason). Check that its folder exists and is writable."
    }
  }
}
