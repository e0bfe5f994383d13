/// A metric's lifts: the settled ones, per segment, and those that move (`novelty`).
extension ScenarioReader {
  /// `{"experiment": {"variant": lift, ...}, ...}`: a metric's `lifts`, or a
  /// segment's in `segmentLifts`.
  mutating func lifts(_ node: JSONNode, catalog: ExperimentCatalog) throws(ScenarioError) -> [String: [String: Double]] {
    var lifts: [String: [String: Double]] = [:]
    for (experiment, variantsNode) in try node.members() {
      try catalog.requireExperiment(experiment, at: variantsNode)
      lifts[experiment] = try variantLifts(variantsNode, of: experiment, catalog: catalog)
    }
    return lifts
  }

  /// A metric's `novelty`: per experiment, its variants' initial lifts and
  /// the half-life in days of their distance to the settled ones.
  mutating func novelty(_ node: JSONNode, catalog: ExperimentCatalog) throws(ScenarioError) -> [String: Novelty] {
    var novelty: [String: Novelty] = [:]
    for (experiment, effectNode) in try node.members() {
      try catalog.requireExperiment(experiment, at: effectNode)
      let effect = try effectNode.object(fields: ScenarioFields.novelty)
      let initialLifts = try variantLifts(try effect.required("initialLifts"), of: experiment, catalog: catalog)
      let halfLife = try effect.required("halfLifeDays").double(in: ScenarioLimits.halfLifeDays)
      novelty[experiment] = Novelty(initialLifts: initialLifts, halfLifeDays: halfLife)
    }
    return novelty
  }

  /// `{"variant": lift, ...}` of one experiment.
  private mutating func variantLifts(
    _ variantsNode: JSONNode, of experiment: String, catalog: ExperimentCatalog
  ) throws(ScenarioError) -> [String: Double] {
    var variants: [String: Double] = [:]
    for (variant, liftNode) in try variantsNode.members() {
      try catalog.requireVariant(variant, of: experiment, at: liftNode)
      let lift = try liftNode.double()
      guard lift > -1 else { throw liftNode.error("must be greater than -1: a lift of -1 removes the outcome entirely") }
      guard lift <= ScenarioLimits.liftUpperBound else {
        throw liftNode.error(
          "must be at most \(NumberText.plain(ScenarioLimits.liftUpperBound)) (+1,000%): a lift is a fraction, "
            + "write \(NumberText.plain(lift / 100)) for +\(NumberText.plain(lift))%")
      }
      if lift > 1, lift == lift.rounded() {
        // A whole number above +100% is most likely a percentage written as one.
        warnings.append(liftNode.error(
          "\(NumberText.plain(lift)) means +\(NumberText.plain(lift * 100))%; +\(NumberText.plain(lift))% is "
            + "\(NumberText.plain(lift / 100))"))
      }
      variants[variant] = lift
    }
    return variants
  }
}
