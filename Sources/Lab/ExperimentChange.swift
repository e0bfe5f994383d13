// SPDX-License-Identifier: Apache-2.0

/// A change to a local experiment from one app version to the next, with what
/// the local source's rules make of it on devices that upgrade.
///
/// It names a change; the change's effect on a device is decided by
/// `LocalDecision` alone.
public enum ExperimentChange: Hashable, Sendable {
  /// The next version defines the experiment and this one does not: devices
  /// decide it afresh, including devices whose record an earlier removal deleted.
  case added
  /// The next version drops the experiment: devices delete their record, so a
  /// later version that brings it back starts them afresh.
  case removed
  /// These variants keep their names but supply other values: devices holding
  /// them get the new values, because only names persist.
  case assignmentsChanged(variants: [String])
  /// These variants are gone: devices holding them select again among the
  /// current variants, as for a new experiment.
  case variantsDeleted([String])
  /// These variants are new: only devices that decide afresh can select them.
  case variantsAdded([String])
  /// These variants' weights changed: only devices that decide afresh follow them.
  case weightsChanged(variants: [String])
  /// The range moved: devices keep what they recorded, active with their
  /// variant or inactive; only devices that decide afresh follow the new range.
  case tokenRangeChanged(from: TokenRange, to: TokenRange)
  /// The baseline is now another variant: the behaviour of inactive devices changes.
  case baselineChanged(from: String, to: String)
  /// The keys changed: devices keep their variant, now with the new keys' values.
  case keysChanged(added: [String], removed: [String])

  /// The changes from `old` to `new`, either of which may be absent.
  public static func between(_ old: Experiment?, _ new: Experiment?) -> [ExperimentChange] {
    switch (old, new) {
    case (nil, nil): return []
    case (nil, .some): return [.added]
    case (.some, nil): return [.removed]
    case (let old?, let new?): return changes(from: old, to: new)
    }
  }

  private static func changes(from old: Experiment, to new: Experiment) -> [ExperimentChange] {
    var changes: [ExperimentChange] = []
    let oldVariants = Dictionary(uniqueKeysWithValues: old.variants.map { ($0.name, $0) })
    let newNames = Set(new.variants.map(\.name))
    let deleted = old.variants.map(\.name).filter { !newNames.contains($0) }
    let added = new.variants.map(\.name).filter { oldVariants[$0] == nil }
    let kept = new.variants.compactMap { variant in oldVariants[variant.name].map { (old: $0, new: variant) } }
    let addedKeys = new.keys.filter { !old.keys.contains($0) }
    let removedKeys = old.keys.filter { !new.keys.contains($0) }
    if !addedKeys.isEmpty || !removedKeys.isEmpty {
      changes.append(.keysChanged(added: addedKeys, removed: removedKeys))
    }
    let changedValues = kept.filter { $0.old.assignments != $0.new.assignments }.map(\.new.name)
    if !changedValues.isEmpty { changes.append(.assignmentsChanged(variants: changedValues)) }
    if !deleted.isEmpty { changes.append(.variantsDeleted(deleted)) }
    if !added.isEmpty { changes.append(.variantsAdded(added)) }
    let reweighted = kept.filter { $0.old.weight != $0.new.weight }.map(\.new.name)
    if !reweighted.isEmpty { changes.append(.weightsChanged(variants: reweighted)) }
    if old.activeTokenRange != new.activeTokenRange {
      changes.append(.tokenRangeChanged(from: old.activeTokenRange, to: new.activeTokenRange))
    }
    if old.baseline != new.baseline { changes.append(.baselineChanged(from: old.baseline, to: new.baseline)) }
    return changes
  }
}

extension ExperimentChange: CustomStringConvertible {
  public var description: String {
    func list(_ names: [String]) -> String { names.joined(separator: ", ") }
    switch self {
    case .added:
      return "added: devices decide it afresh"
    case .removed:
      return "removed: devices delete their record of it"
    case .assignmentsChanged(let variants):
      return "values of \(list(variants)) changed: devices holding them get the new values"
    case .variantsDeleted(let variants):
      return "variant \(list(variants)) deleted: its devices select again among the current variants"
    case .variantsAdded(let variants):
      return "variant \(list(variants)) added: only devices deciding afresh can select it"
    case .weightsChanged(let variants):
      return "weights of \(list(variants)) changed: only devices deciding afresh follow them"
    case .tokenRangeChanged(let from, let to):
      return "token range \(from) -> \(to): devices keep their recorded status, active or inactive; only devices deciding afresh follow the new range"
    case .baselineChanged(let from, let to):
      return "baseline \(from) -> \(to): inactive devices now behave like \(to)"
    case .keysChanged(let added, let removed):
      let parts = (added.isEmpty ? [] : ["added \(list(added))"]) + (removed.isEmpty ? [] : ["removed \(list(removed))"])
      return "keys \(parts.joined(separator: ", ")): devices keep their variant with its values for the new keys"
    }
  }
}
