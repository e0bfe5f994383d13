import Lab

/// The doc's override example: experiment E with variants A and B and keys
/// KeyC and KeyD; A sets KeyC to foo, B to bar.
enum RemoteFixtures {
  static let keys = ["KeyC", "KeyD"]
  static let defaults: [String: AssignmentValue] = ["KeyC": .string("default"), "KeyD": .string("default")]

  static func experimentE(keyCOfB: String = "bar", percentages: (Double, Double) = (50, 50)) -> RemoteExperiment {
    RemoteExperiment(name: "E", variants: [
      RemoteVariant(name: "A", percentage: percentages.0, values: ["KeyC": .string("foo"), "KeyD": .string("d-a")]),
      RemoteVariant(name: "B", percentage: percentages.1, values: ["KeyC": .string(keyCOfB), "KeyD": .string("d-b")]),
    ])
  }

  static func configuration(_ experiments: [RemoteExperiment]) -> RemoteConfiguration {
    experiments.reduce(RemoteConfiguration(experiments: [])) { $0.adding($1, keys: keys) }
  }
}
