/// Input a platform's context cannot hold, said as a full sentence with its fix.
public struct PlatformInputError: Error, CustomStringConvertible, Hashable, Sendable {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}
