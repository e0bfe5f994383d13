import JSONDocument

/// A scenario file that cannot be used, with the JSON path of the offending
/// field and what would fix it, e.g.
/// `versions[2].experiments[0].variants[1].weight: must be greater than 0`:
/// the JSON reader's own error, since a scenario's problems, from its syntax
/// to its values, are all named by path.
public typealias ScenarioError = JSONError
