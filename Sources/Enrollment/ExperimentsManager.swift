// SPDX-License-Identifier: Apache-2.0

import Lab

/// The experiments manager of seed 002 around an A/B SDK such as Apptimize:
/// it separates *checking* a device's variation from *running* it, so that
/// code that only wants to know does not enroll the device, and it keeps
/// experiments out of unit tests.
///
/// The SDK allocates a device to a variation once, by weight; the
/// experiment's `EnrollmentPolicy` says when the device becomes a
/// participant: at allocation, at a check, or at a run. A device whose
/// precondition is unmet is neither allocated nor enrolled, and gets the
/// original variation. "Not enrolled" is not the baseline: an analysis
/// counts only enrolled devices.
public struct ExperimentsManager: Sendable {
  public let experiments: [WrappedExperiment]
  /// In test mode every experiment gives its original variation and nothing
  /// is allocated, enrolled or recorded ("Experiments will run also during
  /// unit tests").
  public let isTestMode: Bool
  /// The variation the SDK allocated, by experiment.
  public private(set) var allocations: [String: String] = [:]
  /// The variation each enrolled experiment enrolled the device in.
  public private(set) var enrollments: [String: String] = [:]
  /// The app's events counted for preconditions.
  public private(set) var recordedEvents = 0

  public init(experiments: [WrappedExperiment], isTestMode: Bool = false) {
    self.experiments = experiments
    self.isTestMode = isTestMode
  }

  /// The app started: experiments whose policy enrolls at allocation
  /// allocate and enroll the device now, if their precondition holds.
  public mutating func start(userStateHolds: Bool = true, random: inout some RandomNumberGenerator) {
    for experiment in experiments where experiment.policy.enrolls(at: .allocation) {
      _ = allocate(experiment, at: .allocation, userStateHolds: userStateHolds, random: &random)
    }
  }

  /// Counts one of the app's events toward the preconditions.
  public mutating func recordEvent() {
    guard !isTestMode else { return }
    recordedEvents += 1
  }

  /// The device's variation, without running it: `nil` when the device
  /// cannot take part (precondition unmet, test mode). Enrolls the device
  /// only under the `check` policy (and at allocation under `allocation`).
  /// `userStateHolds` is the user's state for a `userState` precondition.
  public mutating func check(
    _ name: String, userStateHolds: Bool = true, random: inout some RandomNumberGenerator
  ) -> String? {
    guard let experiment = experiments.first(where: { $0.name == name }) else { return nil }
    return allocate(experiment, at: .check, userStateHolds: userStateHolds, random: &random)
  }

  /// Runs the experiment: the variation whose code the app executes,
  /// enrolling the device under every policy; the original when the device
  /// cannot take part. A device enrolled earlier whose user state no longer
  /// holds is not run ("the experiment will be not enrolled and the session
  /// will not affect our final stats"): it gets the original, and keeps the
  /// enrollment it had.
  public mutating func run(
    _ name: String, userStateHolds: Bool = true, random: inout some RandomNumberGenerator
  ) -> String? {
    guard let experiment = experiments.first(where: { $0.name == name }) else { return nil }
    return allocate(experiment, at: .run, userStateHolds: userStateHolds, random: &random) ?? experiment.original
  }

  private mutating func allocate(
    _ experiment: WrappedExperiment, at moment: EnrollmentPolicy.Moment, userStateHolds: Bool,
    random: inout some RandomNumberGenerator
  ) -> String? {
    guard !isTestMode else { return nil }
    if let precondition = experiment.precondition,
      !precondition.isMet(recordedEvents: recordedEvents, userStateHolds: userStateHolds)
    { return nil }
    let variation = allocations[experiment.name] ?? {
      let index = WeightedSelection(weights: experiment.variations.map(\.weight)).select(bits: random.next())
      return experiment.variations[index].name
    }()
    allocations[experiment.name] = variation
    if experiment.policy.enrolls(at: moment), enrollments[experiment.name] == nil {
      enrollments[experiment.name] = variation
    }
    return variation
  }
}
