import Enrollment
import LabTestKit
import Testing

/// docs/rules/ApptimizeEnrollment.md: checking does not imply running under
/// the wrapper; the policy decides when a device is enrolled; a precondition
/// keeps a device out until it holds; the original variation is required;
/// in test mode nothing runs.
@Suite struct ApptimizeEnrollmentTests {
  private func experiment(_ policy: EnrollmentPolicy, precondition: Precondition? = nil) throws -> WrappedExperiment {
    try WrappedExperiment(
      name: "Price", original: "Original",
      variations: [WrappedVariation(name: "Original"), WrappedVariation(name: "VariationA")], policy: policy,
      precondition: precondition)
  }

  @Test func aCheckEnrollsOnlyUnderTheCheckPolicy() throws {
    var random = SeededGenerator(seed: 1)
    for policy in EnrollmentPolicy.allCases {
      var manager = ExperimentsManager(experiments: [try experiment(policy)])
      manager.start(random: &random)
      #expect((manager.enrollments["Price"] != nil) == (policy == .allocation), "\(policy) after start")
      let checked = manager.check("Price", random: &random)
      #expect(checked != nil)
      #expect((manager.enrollments["Price"] != nil) == (policy != .run), "\(policy) after check")
      let ran = manager.run("Price", random: &random)
      #expect(ran == checked)
      #expect(manager.enrollments["Price"] == checked, "\(policy) after run")
    }
  }

  /// "A user who clicked a button at least 5 times": before the fifth event
  /// the device is not allocated, a run gives the original and enrolls nobody.
  @Test func aPreconditionKeepsTheDeviceOutUntilItHolds() throws {
    var random = SeededGenerator(seed: 2)
    var manager = ExperimentsManager(experiments: [try experiment(.allocation, precondition: .events(5))])
    manager.start(random: &random)
    for _ in 0..<4 { manager.recordEvent() }
    #expect(manager.check("Price", random: &random) == nil)
    #expect(manager.run("Price", random: &random) == "Original")
    #expect(manager.enrollments.isEmpty && manager.allocations.isEmpty)
    manager.recordEvent()
    #expect(manager.run("Price", random: &random) != nil)
    #expect(manager.enrollments.count == 1)
  }

  @Test func theOriginalVariationIsRequired() {
    #expect(throws: EnrollmentError.noOriginalVariation(experiment: "Price", original: "Original")) {
      try WrappedExperiment(
        name: "Price", original: "Original", variations: [WrappedVariation(name: "VariationA")], policy: .run)
    }
    #expect("\(EnrollmentError.noOriginalVariation(experiment: "Price", original: "Original"))"
      == "experiment Price must include its original variation 'Original': an experiment must always include the original variation")
  }

  /// "Experiments will run also during unit tests": not in test mode.
  @Test func inTestModeEveryExperimentGivesTheOriginalAndRecordsNothing() throws {
    var random = SeededGenerator(seed: 3)
    var manager = ExperimentsManager.forUnitTests([try experiment(.allocation)])
    manager.start(random: &random)
    manager.recordEvent()
    #expect(manager.check("Price", random: &random) == nil)
    #expect(manager.run("Price", random: &random) == "Original")
    #expect(manager.allocations.isEmpty && manager.enrollments.isEmpty && manager.recordedEvents == 0)
  }

  /// The allocation follows the weights: 1 : 3 over 20,000 devices.
  @Test func allocationFollowsTheWeights() throws {
    let weighted = try WrappedExperiment(
      name: "Price", original: "Original",
      variations: [WrappedVariation(name: "Original", weight: 1), WrappedVariation(name: "VariationA", weight: 3)], policy: .run)
    var random = SeededGenerator(seed: 4)
    var treated = 0
    for _ in 0..<20_000 {
      var manager = ExperimentsManager(experiments: [weighted])
      if manager.run("Price", random: &random) == "VariationA" { treated += 1 }
    }
    let bound: Double = 4.5 * (20_000 * 0.75 * 0.25).squareRoot()
    #expect(abs(Double(treated) - 15_000) < bound)
  }
}

/// The moments each policy enrolls at, in one table: the rule the manager
/// and the engine share.
@Suite struct EnrollmentPolicyTests {
  @Test func eachPolicyEnrollsFromItsMomentOn() {
    let moments: [EnrollmentPolicy.Moment] = [.allocation, .check, .run]
    #expect(moments.map(EnrollmentPolicy.allocation.enrolls(at:)) == [true, true, true])
    #expect(moments.map(EnrollmentPolicy.check.enrolls(at:)) == [false, true, true])
    #expect(moments.map(EnrollmentPolicy.run.enrolls(at:)) == [false, false, true])
  }
}
