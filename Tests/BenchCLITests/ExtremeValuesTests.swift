import Foundation
import ScenarioFormat
import Testing

/// Every committed scenario, with its numbers pushed to the edges the format
/// accepts, runs to the end: no trap, and no NaN or infinity in results.json
/// or report.md. Each run is a process of its own, so a trap fails one case.
@Suite struct ExtremeValuesTests {
  /// One way to push a scenario's numbers to an edge, applied to its JSON.
  enum Edge: String, CaseIterable {
    /// Amounts at the largest accepted mean, conversions certain, no lifts.
    case largestAmounts
    /// Amounts at the smallest accepted mean, conversions impossible, lifts at their extremes.
    case smallestAmounts
    /// One device.
    case oneDevice
    /// Devices that almost never launch and experiments almost never displayed: empty arms.
    case almostNothingHappens
    /// The largest weight beside the smallest ones; a segment with almost no devices.
    case extremeSharesAndWeights

    func apply(to scenario: inout [String: Any]) {
      switch self {
      case .oneDevice:
        scenario["devices"] = 1
      case .almostNothingHappens:
        scenario["devices"] = 50
        scenario["displayProbability"] = Dictionary(
          uniqueKeysWithValues: experimentNames(scenario).map { ($0, 1e-9 as Any) })
        // A segment's activity distribution gives way to the smallest fixed probability.
        mapSegments(&scenario) {
          $0["activity"] = nil
          $0["dailyLaunchProbability"] = 1e-9
        }
      case .largestAmounts, .smallestAmounts:
        scenario["devices"] = 200
        let largest = self == .largestAmounts
        mapMetrics(&scenario) { metric in
          let isConversion = metric["kind"] as? String == "conversion"
          let baseline: Double = isConversion ? (largest ? 1 : 0) : (largest ? 1e15 : 1e-12)
          metric["baseline"] = baseline
          metric["segmentBaselines"] = nil
          metric["segmentLifts"] = nil
          if largest {
            metric["lifts"] = nil
          } else if var lifts = metric["lifts"] as? [String: [String: Any]] {
            for experiment in lifts.keys {
              let variants = lifts[experiment]!.keys.sorted()
              lifts[experiment] = Dictionary(uniqueKeysWithValues: variants.enumerated().map {
                ($1, ($0 % 2 == 0 ? -0.999999 : ScenarioLimits.liftUpperBound) as Any)
              })
            }
            metric["lifts"] = lifts
          }
        }
      case .extremeSharesAndWeights:
        scenario["devices"] = 200
        if var segments = (scenario["population"] as? [String: Any])?["segments"] as? [[String: Any]],
          segments.count > 1
        {
          for index in segments.indices { segments[index]["share"] = 1e-12 }
          segments[0]["share"] = 1 - 1e-12 * Double(segments.count - 1)
          var population = scenario["population"] as! [String: Any]
          population["segments"] = segments
          scenario["population"] = population
        }
        mapVariants(&scenario) { variants in
          for index in variants.indices { variants[index]["weight"] = 1 }
          variants[0]["weight"] = ScenarioLimits.weight.upperBound
        }
      }
    }
  }

  @Test(arguments: try committedScenarioNames(), Edge.allCases)
  func everyScenarioRunsAtTheEdges(name: String, edge: Edge) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: committedScenario(name)))
    var scenario = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    edge.apply(to: &scenario)
    let file = try BenchProcess.temporaryFile(
      String(decoding: try JSONSerialization.data(withJSONObject: scenario, options: [.sortedKeys]), as: UTF8.self))
    let out = try temporaryFolder()
    // Two replications: the plan's section and its calibration render too, at a fraction of the default's cost.
    let result = try BenchProcess.run([file, "--replications", "2", "--out", out.path, "--quiet"])
    #expect(result.status == 0, "\(name) \(edge): \(result.standardError)")
    for written in ["results.json", "report.md"] {
      let text = try String(contentsOf: out.appendingPathComponent("\(name)/\(written)"), encoding: .utf8)
      let bad = text.range(of: #"(?i)\b-?(nan|inf|infinity)\b"#, options: .regularExpression)
      #expect(bad == nil, "\(name) \(edge) \(written): \(bad.map { String(text[$0]) } ?? "")")
    }
  }
}

private func experimentNames(_ scenario: [String: Any]) -> [String] {
  let versions = scenario["versions"] as? [[String: Any]] ?? []
  let local = versions.flatMap { ($0["experiments"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
  let changes = (scenario["remote"] as? [String: Any])?["changes"] as? [[String: Any]] ?? []
  let remote = changes.compactMap { ($0["add"] as? [String: Any])?["name"] as? String }
  return Array(Set(local + remote)).sorted()
}

private func mapMetrics(_ scenario: inout [String: Any], _ body: (inout [String: Any]) -> Void) {
  guard var metrics = scenario["metrics"] as? [[String: Any]] else { return }
  for index in metrics.indices { body(&metrics[index]) }
  scenario["metrics"] = metrics
}

private func mapSegments(_ scenario: inout [String: Any], _ body: (inout [String: Any]) -> Void) {
  var population = scenario["population"] as? [String: Any]
    ?? ["segments": [["name": "everyone", "share": 1] as [String: Any]]]
  var segments = population["segments"] as? [[String: Any]] ?? []
  for index in segments.indices { body(&segments[index]) }
  population["segments"] = segments
  scenario["population"] = population
}

private func mapVariants(_ scenario: inout [String: Any], _ body: (inout [[String: Any]]) -> Void) {
  guard var versions = scenario["versions"] as? [[String: Any]] else { return }
  for v in versions.indices {
    guard var experiments = versions[v]["experiments"] as? [[String: Any]] else { continue }
    for e in experiments.indices {
      guard var variants = experiments[e]["variants"] as? [[String: Any]] else { continue }
      body(&variants)
      experiments[e]["variants"] = variants
    }
    versions[v]["experiments"] = experiments
  }
  scenario["versions"] = versions
}
