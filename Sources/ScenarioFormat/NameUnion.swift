/// Every name an experiment has had over a plan, of one kind (its variants,
/// variations or keys): the simulation keeps a bit for each in a 64-bit mask,
/// so the union over versions, re-additions and added variations is bounded
/// like one definition's list.
struct NameUnion {
  /// The kind of name, plural, for messages: "variants", "keys".
  let noun: String
  let limit: Int
  private var names: [String: Set<String>] = [:]

  init(of noun: String, limit: Int) {
    self.noun = noun
    self.limit = limit
  }

  /// Adds an experiment's names, refusing them at `path` when the union grows past the limit.
  mutating func add(_ added: some Sequence<String>, of experiment: String, at path: String) throws(ScenarioError) {
    names[experiment, default: []].formUnion(added)
    let count = names[experiment]!.count
    guard count <= limit else {
      throw ScenarioError(
        path: path,
        message: "brings \(experiment) to \(count) \(noun) over the plan; at most \(limit) are accepted: "
          + "reuse the names of its earlier \(noun)")
    }
  }
}
