// SPDX-License-Identifier: Apache-2.0

import Foundation

extension OptimizelyDatafile {
  /// What in the datafile refers to something it does not hold, by path: a
  /// traffic allocation naming no variation of its experiment (the SDK logs
  /// an error and gives those users no variation), an audience id no audience
  /// has (the SDK treats it as unknown: no match), a group's allocation or a
  /// flag naming no experiment. The decisions stay the SDK's; a tool shows
  /// these once, so that a broken file is not read as a targeting result.
  public var problems: [String] {
    let audienceIDs = Set((audiences + typedAudiences).map(\.id))
    var problems: [String] = []
    func check(_ experiment: Experiment, path: String) {
      let variationIDs = Set(experiment.variations.map(\.id))
      for (index, allocation) in experiment.trafficAllocation.enumerated()
      where !allocation.entityId.isEmpty && !variationIDs.contains(allocation.entityId) {
        problems.append(
          "\(path).trafficAllocation[\(index)].entityId: '\(allocation.entityId)' is no variation of \(experiment.key); "
            + "users bucketed below \(allocation.endOfRange) get no variation")
      }
      // endOfRange counts 10,000ths: [50, 100] written for 50/50 serves 1% of users.
      if let largest = experiment.trafficAllocation.map(\.endOfRange).max() {
        if largest > 10_000 {
          problems.append(
            "\(path).trafficAllocation: a range ends at \(largest), past 10000: the SDK buckets users from 0 to 9999, so the rest is never served")
        } else if largest > 0, largest <= 100 {
          problems.append(
            "\(path).trafficAllocation: every range ends by \(largest) of 10000, so \(experiment.key) serves at most "
              + "\(String(format: "%g", Double(largest) / 100))% of users; endOfRange counts 10,000ths (50% is 5000)")
        }
      }
      for id in Self.audienceIDs(of: experiment) where !audienceIDs.contains(id) {
        problems.append("\(path): audience '\(id)' is in no audience of the datafile; the SDK reads it as no match")
      }
    }
    for (index, experiment) in experiments.enumerated() { check(experiment, path: "experiments[\(index)]") }
    for (groupIndex, group) in groups.enumerated() {
      let experimentIDs = Set(group.experiments.map(\.id))
      for (index, allocation) in group.trafficAllocation.enumerated()
      where !allocation.entityId.isEmpty && !experimentIDs.contains(allocation.entityId) {
        problems.append(
          "groups[\(groupIndex)].trafficAllocation[\(index)].entityId: '\(allocation.entityId)' is no experiment of the group")
      }
      for (index, experiment) in group.experiments.enumerated() {
        check(experiment, path: "groups[\(groupIndex)].experiments[\(index)]")
      }
    }
    for (rolloutIndex, rollout) in rollouts.enumerated() {
      for (index, experiment) in rollout.experiments.enumerated() {
        check(experiment, path: "rollouts[\(rolloutIndex)].experiments[\(index)]")
      }
    }
    let experimentIDs = Set(experiments.map(\.id) + groups.flatMap { $0.experiments.map(\.id) })
    let rolloutIDs = Set(rollouts.map(\.id))
    for (index, flag) in featureFlags.enumerated() {
      for id in flag.experimentIds where !experimentIDs.contains(id) {
        problems.append("featureFlags[\(index)].experimentIds: '\(id)' is no experiment of the datafile")
      }
      if let rollout = flag.rolloutId, !rollout.isEmpty, !rolloutIDs.contains(rollout) {
        problems.append("featureFlags[\(index)].rolloutId: '\(rollout)' is no rollout of the datafile")
      }
    }
    return problems
  }

  /// The audience ids an experiment's targeting names: its condition tree's
  /// leaves when it has one, else its list.
  private static func audienceIDs(of experiment: Experiment) -> [String] {
    guard let conditions = experiment.audienceConditions else { return experiment.audienceIds }
    var ids: [String] = []
    func visit(_ node: AttributeValue) {
      switch node {
      case .string(let text) where !["and", "or", "not"].contains(text): ids.append(text)
      case .array(let items): items.forEach(visit)
      default: break
      }
    }
    visit(conditions)
    return ids
  }
}
