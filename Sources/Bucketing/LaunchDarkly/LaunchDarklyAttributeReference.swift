// SPDX-License-Identifier: Apache-2.0

/// Which attribute a clause or a rollout reads. With a context kind, a name
/// starting with `/` is a path into nested objects (`/address/city`, with `~1`
/// for `/` and `~0` for `~`); without one (old data), the name is literal.
public struct LaunchDarklyAttributeReference: Sendable, Hashable {
  /// The components; empty when the reference is invalid.
  public let components: [String]
  /// Why the reference is invalid: the SDK serves no variation for a flag that evaluates it.
  public let error: String?

  public init(_ text: String, contextKind: String?) {
    guard !text.isEmpty else {
      (components, error) = ([], "attribute reference cannot be empty")
      return
    }
    guard let kind = contextKind, !kind.isEmpty, text.hasPrefix("/") else {
      (components, error) = ([text], nil)
      return
    }
    guard text != "/" else {
      (components, error) = ([], "attribute reference cannot be empty")
      return
    }
    var parts: [String] = []
    for part in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
      guard !part.isEmpty else {
        (components, error) = ([], "attribute reference contained a double slash or a trailing slash")
        return
      }
      var unescaped = "", escaping = false
      for character in part {
        if escaping {
          guard character == "0" || character == "1" else {
            (components, error) = ([], "attribute reference contained an escape character (~) that was not followed by 0 or 1")
            return
          }
          unescaped.append(character == "0" ? "~" : "/")
          escaping = false
        } else if character == "~" {
          escaping = true
        } else {
          unescaped.append(character)
        }
      }
      guard !escaping else {
        (components, error) = ([], "attribute reference contained an escape character (~) that was not followed by 0 or 1")
        return
      }
      parts.append(unescaped)
    }
    (components, error) = (parts, nil)
  }
}
