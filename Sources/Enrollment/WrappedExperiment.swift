// SPDX-License-Identifier: Apache-2.0

/// An experiment as the Apptimize wrapper of seed 002 defines it: the
/// original variation and the others, with the moment a device counts as
/// enrolled and the condition it must meet first.
///
/// "An experiment must always include the original variation ... otherwise
/// we'd never know if that was the best solution": the initializer refuses
/// an experiment without it.
public struct WrappedExperiment: Hashable, Sendable {
  public let name: String
  /// The variation that was there before the experiment; the app behaves
  /// like it on a device that is not enrolled.
  public let original: String
  /// Every variation, the original first.
  public let variations: [WrappedVariation]
  public let policy: EnrollmentPolicy
  /// What a device must have done before it can be enrolled, if anything.
  public let precondition: Precondition?

  public init(
    name: String, original: String, variations: [WrappedVariation], policy: EnrollmentPolicy,
    precondition: Precondition? = nil
  ) throws(EnrollmentError) {
    guard variations.contains(where: { $0.name == original }) else {
      throw .noOriginalVariation(experiment: name, original: original)
    }
    guard variations.allSatisfy({ $0.weight > 0 }) else { throw .nonPositiveWeight(experiment: name) }
    self.name = name
    self.original = original
    self.variations = [variations.first { $0.name == original }!] + variations.filter { $0.name != original }
    self.policy = policy
    self.precondition = precondition
  }
}

/// A variation and its allocation weight.
public struct WrappedVariation: Hashable, Sendable {
  public let name: String
  public let weight: Int

  public init(name: String, weight: Int = 1) {
    self.name = name
    self.weight = weight
  }
}

/// When a device counts as enrolled in an experiment (seed 002's "checking
/// implies running"): with the raw SDK, asking for the variation enrolls.
public enum EnrollmentPolicy: String, Hashable, Sendable, CaseIterable {
  /// As soon as the SDK allocates the device, at its first launch.
  case allocation
  /// When the app checks the device's variation, shown or not.
  case check
  /// When the app runs the variation's code: only devices shown the change.
  case run

  /// What the app does with an experiment, from the earliest moment to the latest.
  public enum Moment: Int, Hashable, Sendable, Comparable {
    /// The SDK allocates the device (at the app's start).
    case allocation
    /// The app's code asks for the variation.
    case check
    /// The app runs the variation's code: the device sees it.
    case run

    public static func < (lhs: Moment, rhs: Moment) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Whether this moment enrolls the device: every moment from the policy's on.
  public func enrolls(at moment: Moment) -> Bool {
    moment >= Moment(rawValue: EnrollmentPolicy.allCases.firstIndex(of: self)!)!
  }
}

/// A condition a device must meet when the experiment runs: "a user who
/// clicked a button at least 5 times" is `events(5)`, which once met stays
/// met; "the user has to be a free (not currently paying or not premium)
/// user" is `userState`, which the app passes at every call and which may
/// stop holding.
public enum Precondition: Hashable, Sendable {
  /// The device has recorded at least this many of the app's events.
  case events(Int)
  /// A state of the user the app reports at each call
  /// (`runOrRefreshPriceExperimentConsideringUserPremium:`).
  case userState

  /// Whether a device that recorded `events` of the app's events, and whose
  /// user state the app reports as `userStateHolds`, meets it.
  public func isMet(recordedEvents events: Int, userStateHolds: Bool = true) -> Bool {
    switch self {
    case .events(let needed): return events >= needed
    case .userState: return userStateHolds
    }
  }
}

/// Why an experiment cannot be defined.
public enum EnrollmentError: Error, Hashable, Sendable, CustomStringConvertible {
  case noOriginalVariation(experiment: String, original: String)
  case nonPositiveWeight(experiment: String)

  public var description: String {
    switch self {
    case .noOriginalVariation(let experiment, let original):
      return "experiment \(experiment) must include its original variation '\(original)': an experiment must always include the original variation"
    case .nonPositiveWeight(let experiment):
      return "experiment \(experiment): every variation's weight must be greater than 0"
    }
  }
}
