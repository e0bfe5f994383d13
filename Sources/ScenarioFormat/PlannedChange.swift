/// A change a plan makes on a service's dashboard on a given day: the remote
/// service's (`RemoteChange`) or a hash-bucketed service's (`ServiceChange`).
/// The two differ only in what the change does.
public struct PlannedChange<Action: PlannedAction>: Hashable, Sendable, CustomStringConvertible {
  public var day: Int
  public var action: Action

  public init(day: Int, action: Action) {
    self.day = day
    self.action = action
  }

  /// The experiment the change is about.
  public var experiment: String { action.experiment }

  /// The change as the dashboard would say it.
  public var description: String { action.description }
}

/// What a planned change does, to one experiment, said as the dashboard would.
public protocol PlannedAction: Hashable, Sendable, CustomStringConvertible {
  var experiment: String { get }
}
