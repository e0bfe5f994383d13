import Enrollment

/// What a run records about enrollment, summed over devices.
public struct EnrollmentTally: Hashable, Sendable {
  /// By rule and day: devices whose precondition became true that day.
  public var conditionMet: [[Int]]
  /// By rule and day: devices whose precondition stopped holding that day.
  public var conditionLapsed: [[Int]]
  /// By rule: handshakes by `day * outcomes + outcome`, in the order of
  /// `DevToDevHandshake.Outcome.allCases`.
  public var handshakes: [[Int]]
  /// By rule: switches of user on shared devices by `day * 2 + kind`: to a
  /// user who had started the test (restored), to one who had not.
  public var userSwitches: [[Int]]
  /// By rule and segment: devices on which the experiment was active, and
  /// those enrolled: how the enrolled population differs from the whole.
  public var activeBySegment: [[Int]]
  public var enrolledBySegment: [[Int]]

  init(rules: Int, days: Int, segments: Int) {
    conditionMet = Array(repeating: Array(repeating: 0, count: days), count: rules)
    conditionLapsed = conditionMet
    handshakes = Array(repeating: Array(repeating: 0, count: days * DevToDevHandshake.Outcome.allCases.count), count: rules)
    userSwitches = Array(repeating: Array(repeating: 0, count: days * 2), count: rules)
    activeBySegment = Array(repeating: Array(repeating: 0, count: segments), count: rules)
    enrolledBySegment = activeBySegment
  }
}
