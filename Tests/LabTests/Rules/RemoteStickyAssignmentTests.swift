import Lab
import LabTestKit
import Testing

/// docs/rules/RemoteStickyAssignment.md: the service assigns a device once and
/// keeps it while the experiment runs; new percentages reach only devices not
/// yet assigned.
@Suite struct RemoteStickyAssignmentTests {
  private let token = ActiveExperimentsToken(bits: 1 << 62)

  @Test func anAssignedDeviceKeepsItsVariantWhateverThePercentages() {
    let before = RemoteFixtures.experimentE(percentages: (50, 50))
    let after = RemoteFixtures.experimentE(percentages: (0, 100))
    #expect(after.assignment(previous: "A", attributes: [:], token: token, bits: .max) == "A")
    #expect(before.assignment(previous: nil, attributes: [:], token: token, bits: 0) == "A")
    #expect(after.assignment(previous: nil, attributes: [:], token: token, bits: 0) == "B")
  }

  @Test func aDeviceOutsideTheAudienceGetsNothing() throws {
    var experiment = RemoteFixtures.experimentE()
    experiment.audience = RemoteAudience(tokenRange: try TokenRange(lower: 0.5, upper: 1), attributes: ["platform": ["iOS"]])
    #expect(experiment.assignment(previous: nil, attributes: ["platform": "iOS"], token: token, bits: 0) == nil)
    let inside = ActiveExperimentsToken(bits: 3 << 62)
    #expect(experiment.assignment(previous: nil, attributes: ["platform": "Android"], token: inside, bits: 0) == nil)
    #expect(experiment.assignment(previous: nil, attributes: [:], token: inside, bits: 0) == nil)
    #expect(experiment.assignment(previous: nil, attributes: ["platform": "iOS"], token: inside, bits: 0) == "A")
  }

  /// 10,000 devices assigned at 50/50, then 10,000 new ones at 20/80: the first
  /// keep their split, the new follow the new one.
  @Test func newPercentagesReachOnlyNewDevices() {
    let before = RemoteFixtures.experimentE(percentages: (50, 50)), after = RemoteFixtures.experimentE(percentages: (20, 80))
    var random = SeededGenerator(seed: 61)
    var early: [String] = [], late = 0
    for _ in 0..<10_000 {
      early.append(before.assignment(previous: nil, attributes: [:], token: token, bits: random.next())!)
    }
    #expect(early.map { after.assignment(previous: $0, attributes: [:], token: token, bits: random.next())! } == early)
    for _ in 0..<10_000 where after.assignment(previous: nil, attributes: [:], token: token, bits: random.next()) == "B" {
      late += 1
    }
    #expect(withinBinomialBound(early.filter { $0 == "B" }.count, of: 10_000, p: 0.5))
    #expect(withinBinomialBound(late, of: 10_000, p: 0.8))
  }

  @Test func aDeviceWhoseVariantWasDeletedIsAssignedAgain() {
    var experiment = RemoteFixtures.experimentE()
    experiment.variants.removeFirst()
    #expect(experiment.assignment(previous: "A", attributes: [:], token: token, bits: 0) == "B")
  }
}
