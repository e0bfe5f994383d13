// SPDX-License-Identifier: Apache-2.0

/// Why a service's configuration cannot be used.
public enum BucketingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file is not the service's format; `reason` says where.
  case unreadable(format: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let format, let reason): return "not a valid \(format): \(reason)"
    }
  }

  /// A decoding error as one line: the path of the field and the problem.
  static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return path.isEmpty ? "the top level" : String(path.drop { $0 == "." })
    }
    switch error {
    case .keyNotFound(let key, let context): return "\(path(context)): '\(key.stringValue)' is required"
    case .typeMismatch(let type, let context): return "\(path(context)): expected \(type)"
    case .valueNotFound(let type, let context): return "\(path(context)): expected \(type), found null"
    case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
    @unknown default: return "\(error)"
    }
  }
}
