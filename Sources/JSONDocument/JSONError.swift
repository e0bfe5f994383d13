// SPDX-License-Identifier: Apache-2.0

/// Why a text is not the JSON the bench reads, and where: the JSON path of the
/// value (`$` for the whole document) and what is wrong, with the line and
/// column for a syntax error. Each reader turns it into its own error type.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The JSON path of the value, `$` for the whole document.
  public let path: String
  public let message: String

  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  public var description: String {
    "\(path): \(message)"
  }
}
