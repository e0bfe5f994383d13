import Lab
import Testing

/// A remote experiment as a service delivers it: percentages that are not a
/// finite share of 0 to 100 select nothing, and never trap.
@Suite struct RemoteExperimentTests {
  @Test func percentagesThatAreNoShareSelectNothing() throws {
    let token = try ActiveExperimentsToken(0.3)
    for percentage in [Double.nan, -5, 0, Double.infinity, -Double.infinity] {
      let experiment = RemoteExperiment(name: "Paywall", variants: [RemoteVariant(name: "A", percentage: percentage, values: [:])])
      #expect(experiment.assignment(previous: nil, attributes: [:], token: token, bits: 42) == nil, "\(percentage)")
    }
    // Beyond 100 counts as 100, and a variant beside one that is no share is selected alone.
    let full = RemoteExperiment(
      name: "Paywall",
      variants: [
        RemoteVariant(name: "A", percentage: 150, values: [:]), RemoteVariant(name: "B", percentage: Double.nan, values: [:]),
      ])
    #expect(full.assignment(previous: nil, attributes: [:], token: token, bits: 42) == "A")
  }
}
