import Foundation
import Testing

/// `bench compare`: one plan under several frameworks, byte for byte the same
/// whatever the thread count (scripts/check-readme.sh keeps the committed example fresh).
@Suite struct CompareCommandTests {
  private func files(in folder: URL) throws -> [String] {
    let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
    return enumerator.compactMap { $0 as? String }.filter { !$0.hasSuffix("/") && $0.contains(".") }.sorted()
  }

  @Test func everyFileIsTheSameOnOneAndTwoThreads() throws {
    let one = try temporaryFolder(), two = try temporaryFolder()
    for (folder, threads) in [(one, "1"), (two, "2")] {
      let result = try BenchProcess.run([
        "compare", committedScenario("compare-frameworks"), "--devices", "3000", "--threads", threads, "--out", folder.path,
        "--quiet",
      ])
      #expect(result.status == 0)
    }
    let names = try files(in: one)
    #expect(names == (try files(in: two)))
    #expect(names.contains("compare-frameworks/comparison.md") && names.contains("compare-frameworks/optimizely/results.json"))
    for name in names {
      #expect(try Data(contentsOf: one.appendingPathComponent(name)) == Data(contentsOf: two.appendingPathComponent(name)), "\(name)")
    }
  }

  @Test func badInputIsOneClearLine() throws {
    let unknown = try BenchProcess.run(["compare", committedScenario("compare-frameworks"), "--frameworks", "lab-local,splitio"])
    #expect(unknown.status == 64)
    #expect(unknown.standardError.hasPrefix(
      "Error: --frameworks: 'splitio' is not a framework; use lab-local, lab-remote, optimizely, growthbook, launchdarkly, statsig, eppo, unleash.\n"))
    let noPlan = try BenchProcess.run(["compare", committedScenario("upgrade"), "--out", try temporaryFolder().path])
    #expect(noPlan.status == 1)
    #expect(noPlan.standardError == 
      "Error: service: is required: bench compare runs the experiments of the service section under each framework\n")
  }
}

/// `bench compare --engines`: the plan's replications simulated once and read by each analysis engine.
@Suite struct EngineComparisonCommandTests {
  @Test func eachEngineGetsARowPerExperimentAndTheFileIsTheSameOnOneAndTwoThreads() throws {
    let one = try temporaryFolder(), two = try temporaryFolder()
    for (folder, threads) in [(one, "1"), (two, "2")] {
      let result = try BenchProcess.run([
        "compare", "--engines", "bench,gbstats-bayesian,gbstats-frequentist,gbstats-sequential,optimizely-stats-engine", committedScenario("upgrade"),
        "--devices", "2000", "--replications", "6", "--threads", threads, "--out", folder.path, "--quiet",
        "--engine-setting", "gbstats-bayesian.chanceToWin=0.9",
      ])
      #expect(result.status == 0, "\(result.standardError)")
    }
    let file = "upgrade-engines/engines.md"
    let markdown = try String(contentsOf: one.appendingPathComponent(file), encoding: .utf8)
    #expect(try Data(contentsOf: one.appendingPathComponent(file)) == Data(contentsOf: two.appendingPathComponent(file)))
    #expect(markdown.hasPrefix("# Lab Bench engines: upgrade\n"))
    #expect(markdown.contains("The same 6 replications of the plan (2,000 devices over 90 days, seed "))
    // Each engine's rule, with the values the comparison ran with: a setting the team changed shows.
    #expect(markdown.contains("\n- **GrowthBook Bayesian**: A metric won when its chance to win is above 90% and lost when below 10%, "))
    #expect(markdown.contains("\n- **GrowthBook frequentist**: A metric won or lost when its p-value is below 0.05, "))
    for experiment in ["SubscriptionScreenTheme", "OnboardingLength"] {
      #expect(markdown.contains("\n## \(experiment)\n"), "\(experiment)")
    }
    for row in [
      "| Lab Bench (bench) |", "| GrowthBook Bayesian (gbstats-bayesian) |", "| GrowthBook sequential (gbstats-sequential) |",
      "| Optimizely Stats Engine (optimizely-stats-engine) |",
    ] {
      #expect(markdown.components(separatedBy: row).count - 1 >= 2, "\(row)")
    }
  }

  /// Every engine's page at once: each has its section, and results.json keeps to its schema with every
  /// page's own words and figures.
  @Test func everyEnginesPageKeepsToTheSchema() throws {
    let out = try temporaryFolder()
    let engines = [
      ("gbstats-bayesian", "GrowthBook Bayesian"), ("gbstats-frequentist", "GrowthBook frequentist"),
      ("gbstats-sequential", "GrowthBook sequential"), ("confidence", "Spotify Confidence"),
      ("optimizely-stats-engine", "Optimizely Stats Engine"), ("eppo-sequential", "Eppo sequential"),
    ]
    let run = try BenchProcess.run(
      [committedScenario("true-effect"), "--replications", "1", "--out", out.path, "--quiet"]
        + engines.flatMap { ["--engine", $0.0] })
    #expect(run.status == 0, "\(run.standardError)")
    let report = try String(contentsOf: out.appendingPathComponent("true-effect/report.md"), encoding: .utf8)
    for (name, title) in engines { #expect(report.contains("\n### \(title)'s page\n"), "\(name)") }
    #expect(report.contains("A metric is significant when its lift's 95% sequential confidence interval"))
    #expect(report.contains("(lift "))
    let check = try JSONSchemaCheck(schema: Data(contentsOf: repositoryRoot.appendingPathComponent("docs/results.schema.json")))
    #expect(try check.problems(in: Data(contentsOf: out.appendingPathComponent("true-effect/results.json"))) == [])
  }

  /// `--engine` puts one engine's page beside the bench's decision, in the report and in results.json.
  @Test func anEnginesPageStandsBesideTheDecision() throws {
    let out = try temporaryFolder()
    let run = try BenchProcess.run([
      committedScenario("true-effect"), "--engine", "gbstats-bayesian", "--replications", "1", "--out", out.path, "--quiet",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let report = try String(contentsOf: out.appendingPathComponent("true-effect/report.md"), encoding: .utf8)
    let section = try #require(report.components(separatedBy: "\n### GrowthBook Bayesian's page\n").last)
      .components(separatedBy: "\n## ").first ?? ""
    #expect(section.contains("A metric won when its chance to win is above 95% and lost when below 5%"))
    #expect(section.contains("- **Paywall**: "))
    #expect(section.contains("converted ") && section.contains("(chance to win "))
    let results = try JSONSerialization.jsonObject(
      with: Data(contentsOf: out.appendingPathComponent("true-effect/results.json"))) as? [String: Any]
    let experiment = try #require((results?["experiments"] as? [[String: Any]])?.first)
    let reading = try #require((experiment["engineReadings"] as? [[String: Any]])?.first)
    #expect(reading["engine"] as? String == "gbstats-bayesian")
    let marks = try #require(reading["marks"] as? [[String: Any]])
    #expect(!marks.isEmpty && marks.allSatisfy { $0["figure"] as? String == "chance to win" })
    let check = try JSONSchemaCheck(schema: Data(contentsOf: repositoryRoot.appendingPathComponent("docs/results.schema.json")))
    #expect(try check.problems(in: Data(contentsOf: out.appendingPathComponent("true-effect/results.json"))).isEmpty)
    // The same page on a real export.
    let analyzed = try BenchProcess.run([
      "analyze", repositoryRoot.appendingPathComponent("docs/examples/exports/amplitude.jsonl").path, "--preset", "amplitude",
      "--metric", "purchased=purchase", "--engine", "optimizely-stats-engine", "--engine", "gbstats-frequentist", "--out",
      out.path, "--quiet",
    ])
    #expect(analyzed.status == 0, "\(analyzed.standardError)")
    // One decision per engine: each page in the order asked.
    let exported = try String(contentsOf: out.appendingPathComponent("amplitude-analyze/report.md"), encoding: .utf8)
    let optimizely = try #require(exported.range(of: "\n### Optimizely Stats Engine's page\n"))
    let growthbook = try #require(exported.range(of: "\n### GrowthBook frequentist's page\n"))
    #expect(optimizely.lowerBound < growthbook.lowerBound)
    #expect(exported.contains("(statistical significance ") && exported.contains("(p-value "))
    let unknown = try BenchProcess.run([committedScenario("true-effect"), "--engine", "growthbook"])
    #expect(unknown.status == 64)
    #expect(unknown.standardError.hasPrefix(
      "Error: --engine: no engine is called 'growthbook'; the engines are bench, gbstats-bayesian, gbstats-frequentist, "
        + "gbstats-sequential, confidence, optimizely-stats-engine, eppo-sequential.\n"))
  }

  /// A team's settings replace the platform's defaults on its page, and its rule says so.
  @Test func anEnginesSettingsAreTheTeams() throws {
    let out = try temporaryFolder()
    let run = try BenchProcess.run([
      committedScenario("true-effect"), "--engine", "gbstats-bayesian", "--engine", "confidence", "--engine-setting",
      "gbstats-bayesian.chanceToWin=0.8", "--engine-setting", "confidence.alpha=0.1", "--replications", "1", "--out",
      out.path, "--quiet",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let report = try String(contentsOf: out.appendingPathComponent("true-effect/report.md"), encoding: .utf8)
    #expect(report.contains("A metric won when its chance to win is above 80% and lost when below 20%"))
    #expect(report.contains("\n### Spotify Confidence's page\n"))
    #expect(report.contains("alpha 0.1 split over the treatments and success metrics"))
    #expect(report.contains("(adjusted lower bound of the lift "))
    for (setting, message) in [
      ("gbstats-bayesian.chanceToWin=2", "'gbstats-bayesian.chanceToWin=2': chanceToWin must be a number between 0.5 and 0.9999 (gbstats-bayesian's default: 0.95)"),
      ("gbstats-bayesian.pValue=0.1", "'gbstats-bayesian.pValue=0.1': gbstats-bayesian has no setting 'pValue'; its settings are chanceToWin, minimumSampleSize, minimumChange"),
      ("confidence.alpha=0x1p-4", "'confidence.alpha=0x1p-4': alpha must be a number between 0.0001 and 0.5 (confidence's default: 0.05)"),
      ("eppo-sequential.tuningParameter=0", "'eppo-sequential.tuningParameter=0': tuningParameter must be a number between 1 and 1000000000 (eppo-sequential's default: 10000)"),
      ("gbstats-sequential.tuningParameter=0", "'gbstats-sequential.tuningParameter=0': tuningParameter must be a number between 1 and 1000000000 (gbstats-sequential's default: 5000)"),
      ("bench.alpha=0.1", "'bench.alpha=0.1': bench has no settings"),
      ("chanceToWin=0.9", "'chanceToWin=0.9': takes ENGINE.SETTING=VALUE, e.g. gbstats-bayesian.chanceToWin=0.9"),
    ] {
      let bad = try BenchProcess.run([committedScenario("true-effect"), "--engine-setting", setting])
      #expect(bad.status == 64)
      #expect(bad.standardError.hasPrefix("Error: --engine-setting \(message).\n"), "\(bad.standardError)")
    }
  }

  @Test func badInputIsOneClearLine() throws {
    let unknown = try BenchProcess.run(["compare", "--engines", "bench,gbstats", committedScenario("upgrade")])
    #expect(unknown.status == 64)
    #expect(unknown.standardError.hasPrefix(
      "Error: --engines: no engine is called 'gbstats'; the engines are bench, gbstats-bayesian, gbstats-frequentist, "
        + "gbstats-sequential, confidence, optimizely-stats-engine, eppo-sequential.\n"))
    let stray = try BenchProcess.run(["compare", committedScenario("compare-frameworks"), "--replications", "5"])
    #expect(stray.status == 64)
    #expect(stray.standardError.hasPrefix(
      "Error: --replications is for --engines; a comparison of frameworks runs the plan once each.\n"))
  }
}

/// Plans the reader accepts that once trapped in the comparison: a service
/// experiment left with no variation of weight, and weights moved to a
/// variation Lab's remote source never took.
@Suite struct CompareEdgeTests {
  @Test func anExperimentWithoutWeightIsNoTrap() throws {
    let plan = """
      {"name": "edge", "seed": 3, "devices": 300, "days": 10,
       "versions": [{"version": "1.0", "releaseDay": 0}],
       "metrics": [{"name": "subscribed", "kind": "conversion", "baseline": 0.1}],
       "service": {"framework": "optimizely", "changes": [
         {"day": 0, "start": {"name": "Paywall", "variations": [{"name": "A", "weight": 1}, {"name": "B", "weight": 0}]}},
         {"day": 3, "removeVariation": {"experiment": "Paywall", "variation": "A"}},
         {"day": 4, "addVariation": {"experiment": "Paywall", "name": "C", "weight": 1}},
         {"day": 5, "setWeights": {"experiment": "Paywall", "weights": {"C": 1}}}
       ]}}
      """
    let out = try temporaryFolder()
    let result = try BenchProcess.run(["compare", try BenchProcess.temporaryFile(plan), "--out", out.path, "--quiet"])
    #expect(result.status == 0, "\(result.standardError)")
    let comparison = try String(contentsOf: out.appendingPathComponent("edge/comparison.md"), encoding: .utf8)
    #expect(comparison.contains(
      "- lab-remote: day 5, Paywall: the weight goes to variations the Taplytics experiment never took: every variant is at "
        + "0%, and devices not yet assigned get none."))
    #expect(!comparison.contains("nan"))
  }
}
