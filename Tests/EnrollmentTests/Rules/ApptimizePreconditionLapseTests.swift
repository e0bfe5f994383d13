import Enrollment
import LabTestKit
import Testing

/// docs/rules/ApptimizePreconditionLapse.md: a precondition the app passes
/// at every call ("the user has to be a free … user") may stop holding; the
/// wrapper then does not run the experiment for that session, and the
/// device keeps the enrollment it had.
@Suite struct ApptimizePreconditionLapseTests {
  private func manager(_ policy: EnrollmentPolicy) throws -> ExperimentsManager {
    ExperimentsManager(experiments: [
      try WrappedExperiment(
        name: "Price experiment", original: "Original",
        variations: [WrappedVariation(name: "Original"), WrappedVariation(name: "variation1")], policy: policy,
        precondition: .userState)
    ])
  }

  @Test func aUserWhoTurnsPremiumIsNoLongerRunButStaysEnrolled() throws {
    var random = SeededGenerator(seed: 11)
    var manager = try manager(.run)
    // Premium from the start: nothing is allocated, the original runs.
    let premiumCheck = manager.check("Price experiment", userStateHolds: false, random: &random)
    let premiumRun = manager.run("Price experiment", userStateHolds: false, random: &random)
    #expect(premiumCheck == nil && premiumRun == "Original")
    #expect(manager.enrollments.isEmpty && manager.allocations.isEmpty)
    // A free user: allocated and enrolled at the run.
    let variation = try #require(manager.run("Price experiment", userStateHolds: true, random: &random))
    #expect(manager.enrollments == ["Price experiment": variation])
    // Turned premium: not run this session, whatever the variation; the enrollment stays.
    for _ in 0..<3 {
      let check = manager.check("Price experiment", userStateHolds: false, random: &random)
      let run = manager.run("Price experiment", userStateHolds: false, random: &random)
      #expect(check == nil && run == "Original")
    }
    #expect(manager.enrollments == ["Price experiment": variation])
    // Free again: the same variation, as the SDK allocated it once.
    let again = manager.run("Price experiment", userStateHolds: true, random: &random)
    #expect(again == variation)
  }

  /// The state is read at every call: unlike an events precondition, which
  /// once met stays met, it is never remembered.
  @Test func theStateIsReadAtEveryCall() {
    #expect(Precondition.userState.isMet(recordedEvents: 1_000, userStateHolds: false) == false)
    #expect(Precondition.userState.isMet(recordedEvents: 0, userStateHolds: true))
    #expect(Precondition.events(5).isMet(recordedEvents: 5, userStateHolds: false))
  }

  /// Under the allocation policy the start enrolls a free user only.
  @Test func allocationAtStartNeedsTheStateToHold() throws {
    var random = SeededGenerator(seed: 12)
    var premium = try manager(.allocation)
    premium.start(userStateHolds: false, random: &random)
    #expect(premium.enrollments.isEmpty)
    var free = try manager(.allocation)
    free.start(userStateHolds: true, random: &random)
    #expect(free.enrollments.count == 1)
  }
}
