import Lab
import Results
import ScenarioFormat

/// One sentence per change an upgrade made to an experiment, naming the Lab
/// rule that decided what happened to the devices (docs/rules/).
enum ChangeSentences {
  /// Whether devices made `transition` skipping versions between its two:
  /// they met those versions' changes at once, by the same rules.
  static func skipsVersions(_ transition: TransitionResult, versions: [AppVersion]) -> Bool {
    guard let from = versions.firstIndex(where: { $0.version == transition.fromVersion }),
      let to = versions.firstIndex(where: { $0.version == transition.toVersion })
    else { return false }
    return to > from + 1
  }

  static func sentences(for transition: TransitionResult, of experiment: String, versions: [AppVersion]) -> [String] {
    guard let from = versions.firstIndex(where: { $0.version == transition.fromVersion }),
      let to = versions.firstIndex(where: { $0.version == transition.toVersion })
    else { return [] }
    let old = versions[from].experiments.first { $0.name == experiment }
    let new = versions[to].experiments.first { $0.name == experiment }
    let skipped = versions[(from + 1)..<max(to, from + 1)].map(\.version)
    let upgrade = "\(transition.fromVersion) → \(transition.toVersion)"
      + (skipped.isEmpty ? "" : " (devices that skipped \(skipped.joined(separator: ", ")))")
    let changes = ExperimentChange.between(old, new)
    guard !changes.isEmpty else {
      guard new != nil, transition.kept + transition.reassigned > 0 else { return [] }
      return ["\(upgrade) left \(experiment) unchanged: \(NumberFormat.count(transition.kept)) devices kept their variant."]
    }
    return changes.map { sentence($0, upgrade: upgrade, experiment: experiment, transition: transition, versions: versions, from: from) }
  }

  private static func sentence(
    _ change: ExperimentChange, upgrade: String, experiment: String, transition: TransitionResult, versions: [AppVersion],
    from: Int
  ) -> String {
    let count = NumberFormat.count
    switch change {
    case .added:
      if transition.returned > 0 {
        let share = Double(transition.returnedOnAnotherVariant) / Double(transition.returned)
        let removedBy = versions[from].version
        return "\(upgrade) brought back \(experiment) after \(removedBy) removed it: the devices' records were deleted, so "
          + "\(NumberFormat.percent(share, decimals: 1)) of its \(count(transition.returned)) returning devices changed variant "
          + "(rule 2, ExperimentReAdded)."
      }
      return "\(upgrade) added \(experiment): \(count(transition.activated)) devices activated it."
    case .removed:
      return "\(upgrade) removed \(experiment): \(count(transition.deactivated)) devices lost it and deleted their record of it "
        + "(rule 2, ExperimentReAdded)."
    case .assignmentsChanged(let variants):
      return "\(upgrade) changed the values of \(variants.joined(separator: ", ")) in \(experiment): their devices kept the "
        + "variant and now get the new values (rule 1, AssignmentChange)."
    case .variantsDeleted(let variants):
      return "\(upgrade) deleted \(variants.joined(separator: ", ")) from \(experiment): \(count(transition.reassigned)) devices "
        + "that held it selected again among the remaining variants"
        + (transition.deactivated > 0 ? " and \(count(transition.deactivated)) became inactive under the new range" : "")
        + " (rule 3, DeletedVariant)."
    case .variantsAdded(let variants):
      return "\(upgrade) added \(variants.joined(separator: ", ")) to \(experiment): only devices deciding afresh (new to the "
        + "experiment, or whose variant was deleted) can select it."
    case .weightsChanged(let variants):
      return "\(upgrade) changed the weights of \(variants.joined(separator: ", ")) in \(experiment): devices that had "
        + "chosen keep their variant, so the split moves only with new devices."
    case .tokenRangeChanged(let old, let new):
      return "\(upgrade) moved \(experiment)'s token range from \(old) to \(new): \(count(transition.kept)) active devices "
        + "kept their variant wherever their token now lies"
        + (transition.activated > 0 ? ", \(count(transition.activated)) inactive devices inside the new range joined" : "")
        + " (rule 4, TokenRangeChange)."
    case .baselineChanged(let old, let new):
      return "\(upgrade) made \(new) the baseline of \(experiment) instead of \(old): inactive devices now behave like \(new)."
    case .keysChanged(let added, let removed):
      let parts = (added.isEmpty ? [] : ["added \(added.joined(separator: ", "))"])
        + (removed.isEmpty ? [] : ["removed \(removed.joined(separator: ", "))"])
      return "\(upgrade) \(parts.joined(separator: " and ")) as keys of \(experiment): devices kept their variant with "
        + "its values for the new keys."
    }
  }
}
