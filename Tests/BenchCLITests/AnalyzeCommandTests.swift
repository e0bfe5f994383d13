import Foundation
import Report
import Testing

@Suite struct AnalyzeCommandTests {
  /// Simulate, export, analyse: the report from the events table carries the
  /// simulated run's numbers.
  @Test func aSimulatedRunRoundTripsThroughItsEventsTable() throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent("events.csv").path
    let simulate = try BenchProcess.run([committedScenario("upgrade"), "--devices", "2500", "--replications", "1", "--out", out.appendingPathComponent("run").path, "--events", events, "--quiet"])
    #expect(simulate.status == 0)
    let analyse = try BenchProcess.run([
      "analyze", events, "--outcomes", out.appendingPathComponent("events-outcomes.csv").path, "--scenario", committedScenario("upgrade"),
      "--out", out.appendingPathComponent("analysis").path,
    ])
    #expect(analyse.status == 0, "\(analyse.standardError)")
    #expect(analyse.standardOutput.hasPrefix("Analysed 2,500 devices in 2 experiments.\n"))
    let simulated = try json(out.appendingPathComponent("run/upgrade/results.json"))
    let analysed = try json(out.appendingPathComponent("analysis/upgrade-analyze/results.json"))
    let simulatedExperiments = try #require(simulated["experiments"] as? [[String: Any]])
    let analysedExperiments = try #require(analysed["experiments"] as? [[String: Any]])
    #expect(simulatedExperiments.count == analysedExperiments.count)
    for (run, read) in zip(simulatedExperiments, analysedExperiments) {
      let runVariants = try #require(run["variants"] as? [[String: Any]]), readVariants = try #require(read["variants"] as? [[String: Any]])
      for (a, b) in zip(runVariants, readVariants) {
        for key in ["name", "exposed", "contaminated", "firstExposed"] {
          #expect("\(a[key]!)" == "\(b[key]!)", "\(key)")
        }
        let metricsA = try #require(a["metrics"] as? [String: [String: Any]]), metricsB = try #require(b["metrics"] as? [String: [String: Any]])
        for (metric, values) in metricsA {
          for key in ["n", "conversions", "mean", "variance"] {
            #expect("\(values[key] ?? "none")" == "\(metricsB[metric]?[key] ?? "none")", "\(metric).\(key)")
          }
        }
      }
      let runAnalysis = try #require(run["analysis"] as? [[String: Any]]), readAnalysis = try #require(read["analysis"] as? [[String: Any]])
      for (a, b) in zip(runAnalysis, readAnalysis) {
        let comparisonsA = try #require(a["comparisons"] as? [[String: Any]]), comparisonsB = try #require(b["comparisons"] as? [[String: Any]])
        for (x, y) in zip(comparisonsA, comparisonsB) {
          for key in ["variant", "test", "statistic", "pValue", "lift", "ciLow", "ciHigh", "probabilityToBeatBaseline"] {
            #expect("\(x[key]!)" == "\(y[key]!)", "\(key)")
          }
        }
      }
    }
    let report = try String(contentsOf: out.appendingPathComponent("analysis/upgrade-analyze/report.md"), encoding: .utf8)
    #expect(report.contains("Analysed events.csv: 2,500 devices over 90 days."))
  }

  /// The export carries the app version of each event, so the analysis
  /// follows the plan's changes of weights as the simulator does: the same
  /// sample ratio check and the same verdicts. (Without versions the check
  /// used the last version's weights and failed with p ≈ 1e-62 on upgrade.)
  @Test func theRoundTripGivesTheSameVerdicts() throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent("events.csv").path
    let scenario = committedScenario("upgrade")
    #expect(try BenchProcess.run([scenario, "--devices", "20000", "--replications", "1", "--out", out.path, "--events", events, "--quiet"]).status == 0)
    let header = try String(contentsOfFile: events, encoding: .utf8).prefix { $0 != "\n" }
    #expect(header == "value,key,variant,experiment,source,reason,id_for_vendor,day,version")
    let analyse = try BenchProcess.run([
      "analyze", events, "--outcomes", out.appendingPathComponent("events-outcomes.csv").path, "--scenario", scenario,
      "--out", out.path, "--quiet",
    ])
    #expect(analyse.status == 0, "\(analyse.standardError)")
    let simulated = try #require(try json(out.appendingPathComponent("upgrade/results.json"))["experiments"] as? [[String: Any]])
    let analysed = try #require(try json(out.appendingPathComponent("upgrade-analyze/results.json"))["experiments"] as? [[String: Any]])
    #expect(simulated.count == analysed.count)
    for (run, read) in zip(simulated, analysed) {
      let runSRM = try #require(run["srm"] as? [String: Any]), readSRM = try #require(read["srm"] as? [String: Any])
      let p = try #require(runSRM["pValue"] as? Double), q = try #require(readSRM["pValue"] as? Double)
      #expect(abs(p - q) < 1e-6, "\(run["name"]!): \(p) against \(q)")
      let verdicts = { (experiment: [String: Any]) in (experiment["analysis"] as? [[String: Any]] ?? []).map { "\($0["verdict"]!)" } }
      #expect(verdicts(run) == verdicts(read), "\(run["name"]!)")
    }
  }

  /// Optimizely's and GrowthBook's experiments write their decisions to the
  /// events table as their SDKs report them when shown, so an analysis of
  /// the table gives back the simulated run's counts and metrics as it does
  /// for Lab's experiments.
  @Test(arguments: ["optimizely-traffic-change", "growthbook-weight-change"])
  func aServiceRunRoundTripsThroughItsEventsTable(_ name: String) throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent("events.csv").path
    let simulate = try BenchProcess.run([
      committedScenario(name), "--devices", "3000", "--replications", "1", "--out", out.appendingPathComponent("run").path, "--events", events, "--quiet",
    ])
    #expect(simulate.status == 0, "\(simulate.standardError)")
    let table = try String(contentsOfFile: events, encoding: .utf8)
    #expect(table.contains(name.hasPrefix("optimizely") ? ",Optimizely,displayed," : ",GrowthBook,displayed,"))
    let analyse = try BenchProcess.run([
      "analyze", events, "--outcomes", out.appendingPathComponent("events-outcomes.csv").path, "--scenario", committedScenario(name),
      "--out", out.appendingPathComponent("analysis").path, "--quiet",
    ])
    #expect(analyse.status == 0, "\(analyse.standardError)")
    let simulated = try #require(try json(out.appendingPathComponent("run/\(name)/results.json"))["experiments"] as? [[String: Any]])
    let analysed = try #require(
      try json(out.appendingPathComponent("analysis/\(name)-analyze/results.json"))["experiments"] as? [[String: Any]])
    #expect(simulated.count == analysed.count && !simulated.isEmpty)
    for (run, read) in zip(simulated, analysed) {
      let runVariants = try #require(run["variants"] as? [[String: Any]]), readVariants = try #require(read["variants"] as? [[String: Any]])
      #expect(runVariants.count == readVariants.count)
      for (a, b) in zip(runVariants, readVariants) {
        for key in ["name", "exposed", "contaminated", "firstExposed"] {
          #expect("\(a[key]!)" == "\(b[key]!)", "\(key)")
        }
        let metricsA = try #require(a["metrics"] as? [String: [String: Any]]), metricsB = try #require(b["metrics"] as? [String: [String: Any]])
        #expect(Set(metricsA.keys) == Set(metricsB.keys))
        for (metric, values) in metricsA {
          for key in ["n", "conversions", "mean", "variance"] {
            #expect("\(values[key] ?? "none")" == "\(metricsB[metric]?[key] ?? "none")", "\(metric).\(key)")
          }
        }
      }
    }
  }

  @Test func aMissingColumnIsOneClearLine() throws {
    let events = try BenchProcess.temporaryFile("user,experiment,variant,reason,day\nd1,Theme,A,displayed,0\n")
    let outcomes = try BenchProcess.temporaryFile("id_for_vendor,metric,value\nd1,converted,1\n")
    let result = try BenchProcess.run(["analyze", events, "--outcomes", outcomes])
    #expect(result.status == 1)
    #expect(result.standardError == "Error: \(events): has no column 'id_for_vendor' (found: user, experiment, variant, reason, day); name the column that holds it with --column id_for_vendor=NAME\n")
    let mapped = try BenchProcess.run(["analyze", events, "--outcomes", outcomes, "--column", "id_for_vendor=user", "--out", try temporaryFolder().path])
    #expect(mapped.status == 1)
    #expect(mapped.standardError.hasPrefix("Error: \(outcomes): has no column 'user'"))
  }

  @Test func malformedRowsFailOrAreSkippedWithACount() throws {
    let events = try BenchProcess.temporaryFile("""
      id_for_vendor,experiment,variant,reason,day
      d1,Theme,A,displayed,0
      d2,Theme,B,displayed,soon
      d3,Theme,B,displayed,1

      """)
    let outcomes = try BenchProcess.temporaryFile("id_for_vendor,metric,value\nd1,converted,1\nd3,converted,0\n")
    let failing = try BenchProcess.run(["analyze", events, "--outcomes", outcomes])
    #expect(failing.status == 1)
    #expect(failing.standardError == "Error: \(events) line 3: day 'soon' is not a whole number of days from 0 to 3659 (ten years); fix the row or pass --skip-malformed to leave such rows out\n")
    let out = try temporaryFolder()
    let skipping = try BenchProcess.run([
      "analyze", events, "--outcomes", outcomes, "--skip-malformed", "--out", out.path, "--name", "tiny", "--baseline", "Theme=A",
    ])
    #expect(skipping.status == 0)
    #expect(skipping.standardError == "Skipped 1 malformed row; the first, \(events) line 3: day 'soon' is not a whole number of days from 0 to 3659 (ten years).\n")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("tiny/report.md").path))
  }

  /// Anyone who sends an analytics event names experiments and metrics: a
  /// name that reads as a path writes its charts inside the report's folder
  /// all the same, under names the report links to.
  @Test func namesFromTheTableNeverLeaveTheReportFolder() throws {
    var events = "id_for_vendor,experiment,variant,reason,day\n", outcomes = "id_for_vendor,metric,value\n"
    for device in 0..<80 {
      events += "d\(device),../../escape,\(device % 2 == 0 ? "A" : "B"),displayed,\(device % 4)\n"
      outcomes += "d\(device),../../lost,\(device % 3 == 0 ? 1 : 0)\n"
    }
    let root = try temporaryFolder(), out = root.appendingPathComponent("reports")
    let result = try BenchProcess.run([
      "analyze", try BenchProcess.temporaryFile(events, fileExtension: "csv"), "--outcomes",
      try BenchProcess.temporaryFile(outcomes, fileExtension: "csv"), "--out", out.path, "--name", "tiny", "--quiet",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["reports"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["tiny"])
    let files = Set(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("tiny").path))
    let report = try String(contentsOf: out.appendingPathComponent("tiny/report.md"), encoding: .utf8)
    let links = report.components(separatedBy: "](").dropFirst().compactMap { $0.split(separator: ")").first.map(String.init) }
      .filter { $0.hasSuffix(".svg") }
    // The digests are SHA-256's of "tiny-../../escape" and "tiny-../../escape-../../lost", from Python's hashlib.
    #expect(links.contains("tiny-.._.._escape-1fad3fee2fac-exposures.svg"))
    #expect(links.contains("tiny-.._.._escape-.._.._lost-faf944049be5-lift.svg"))
    #expect(!links.isEmpty && links.allSatisfy { files.contains($0) && !$0.contains("/") }, "\(links) in \(files)")
    #expect(files.filter { $0.hasSuffix(".svg") } == Set(links))
  }

  /// The analysis writes its own folder and never replaces a simulated
  /// run's report unless asked; it replaces its own earlier analysis.
  @Test func anAnalysisKeepsToItsOwnFolder() throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent("events.csv").path, outcomes = out.appendingPathComponent("events-outcomes.csv").path
    #expect(try BenchProcess.run([committedScenario("upgrade"), "--devices", "300", "--replications", "1", "--out", out.path, "--events", events, "--quiet"]).status == 0)
    let simulated = try Data(contentsOf: out.appendingPathComponent("upgrade/results.json"))
    let scenario = committedScenario("upgrade")
    let first = try BenchProcess.run(["analyze", events, "--outcomes", outcomes, "--scenario", scenario, "--out", out.path, "--quiet"])
    #expect(first.status == 0, "\(first.standardError)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("upgrade-analyze/report.md").path))
    let again = try BenchProcess.run(["analyze", events, "--outcomes", outcomes, "--scenario", scenario, "--out", out.path, "--quiet"])
    #expect(again.status == 0)
    let over = try BenchProcess.run(["analyze", events, "--outcomes", outcomes, "--name", "upgrade", "--out", out.path, "--quiet"])
    #expect(over.status == 1)
    #expect(over.standardError == "Error: \(out.path)/upgrade holds a simulated run's report: choose another --name or --out, or pass --force to replace it.\n")
    #expect(try Data(contentsOf: out.appendingPathComponent("upgrade/results.json")) == simulated)
    let forced = try BenchProcess.run(["analyze", events, "--outcomes", outcomes, "--name", "upgrade", "--out", out.path, "--force", "--quiet"])
    #expect(forced.status == 0)
    #expect(try Data(contentsOf: out.appendingPathComponent("upgrade/results.json")) != simulated)
    // The simulated run's charts are gone with it: the folder is the analysis's alone.
    let charts = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("upgrade").path).filter { $0.hasSuffix(".svg") }
    #expect(!charts.contains("upgrade-delivery.svg"))
  }

  /// Exposures alone: the sample ratio and contamination, no metrics.
  @Test func anEventsTableAloneIsAnalysed() throws {
    let events = try BenchProcess.temporaryFile("id_for_vendor,experiment,variant,reason,day\nd1,Theme,A,displayed,0\nd2,Theme,B,displayed,1\nd2,Theme,A,displayed,2\n")
    let out = try temporaryFolder()
    let result = try BenchProcess.run(["analyze", events, "--name", "alone", "--out", out.path])
    #expect(result.status == 0, "\(result.standardError)")
    let results = try json(out.appendingPathComponent("alone/results.json"))
    let variants = try #require((results["experiments"] as? [[String: Any]])?.first?["variants"] as? [[String: Any]])
    #expect(variants.map { $0["exposed"] as? Int } == [2, 1])
    #expect(variants.map { $0["contaminated"] as? Int } == [1, 1])
    #expect(variants.allSatisfy { ($0["metrics"] as? [String: Any])?.isEmpty == true })
  }

  /// Outcomes as events: purchases add up, a conversion counts a device once.
  @Test func outcomeEventsAreSummed() throws {
    let events = try BenchProcess.temporaryFile("id_for_vendor,experiment,variant,reason,day\nd1,Theme,A,displayed,0\nd2,Theme,A,displayed,0\nd3,Theme,B,displayed,0\n")
    let outcomes = try BenchProcess.temporaryFile(
      "id_for_vendor,metric,value\nd1,revenue,2.5\nd1,revenue,1.5\nd1,converted,1\nd1,converted,1\nd3,revenue,7\nd3,converted,1\n")
    let out = try temporaryFolder()
    let refused = try BenchProcess.run(["analyze", events, "--outcomes", outcomes, "--name", "events", "--out", out.path])
    #expect(refused.status == 1)
    let summed = try BenchProcess.run([
      "analyze", events, "--outcomes", outcomes, "--outcome-events", "--kind", "converted=conversion", "--name", "events", "--out", out.path,
    ])
    #expect(summed.status == 0, "\(summed.standardError)")
    let variants = try #require(
      (try json(out.appendingPathComponent("events/results.json"))["experiments"] as? [[String: Any]])?.first?["variants"] as? [[String: Any]])
    let a = try #require(variants.first?["metrics"] as? [String: [String: Any]])
    #expect(a["revenue"]?["mean"] as? Double == 2)
    #expect(a["converted"]?["conversions"] as? Int == 1)
    #expect(a["converted"]?["mean"] as? Double == 0.5)
  }

  @Test func badOptionsNameTheFix() throws {
    let result = try BenchProcess.run(["analyze", "e.csv", "--outcomes", "o.csv", "--kind", "revenue=money"])
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix("Error: --kind takes METRIC=conversion or METRIC=continuous, not 'revenue=money'.\n"))
    let name = try BenchProcess.run(["analyze", "e.csv", "--name", "../up"])
    #expect(name.standardError.hasPrefix("Error: --name must be letters, digits, '-' or '_' (it names the report's folder), not '../up'.\n"))
    for (options, message) in [
      (["--time", "epoch"], "Error: --time takes day, iso8601, unix, unix-ms, unix-us, not 'epoch'.\n"),
      (["--time", "iso8601", "--timezone", "Mars/Olympus"], "Error: --timezone takes a zone such as UTC or Europe/Berlin, not 'Mars/Olympus'.\n"),
      (["--start", "2026-11-24"], "Error: --start goes with timestamps: add --time iso8601, unix, unix-ms or unix-us.\n"),
      (["--preset", "heap"], "Error: --preset takes lab, amplitude, mixpanel, segment, statsig, firebase, not 'heap'; for another tool describe its export with --map FILE.json.\n"),
      (["--metric", "revenue=purchase:price"], "Error: --metric reads the export's own events; the Lab table holds none: pass --preset or --map for an export, or --outcomes for the Lab table's outcomes.\n"),
      (["--preset", "amplitude", "--metric", "revenue"], "Error: --metric takes NAME=EVENT or NAME=EVENT:PROPERTY, not 'revenue'.\n"),
      (["--preset", "amplitude", "--metric", "a=x", "--metric", "a=y"], "Error: --metric a is given twice.\n"),
      (["--preset", "amplitude", "--column", "day=t"], "Error: --column renames the Lab table's columns; an export's fields are described with --map FILE.json.\n"),
      (["--split", "Theme=A:1"], "Error: --split Theme: a split names at least two variants.\n"),
      (["--split", "Theme=A:1,B:0"], "Error: --split takes EXPERIMENT=VARIANT:WEIGHT,VARIANT:WEIGHT (weights from above 0 to 10⁹), not 'Theme=A:1,B:0'.\n"),
      (["--split", "Theme=A:1,A:2"], "Error: --split takes EXPERIMENT=VARIANT:WEIGHT,VARIANT:WEIGHT (weights from above 0 to 10⁹), not 'Theme=A:1,A:2'.\n"),
      (["--split", "Theme=A:1e308,B:1e308"], "Error: --split takes EXPERIMENT=VARIANT:WEIGHT,VARIANT:WEIGHT (weights from above 0 to 10⁹), not 'Theme=A:1e308,B:1e308'.\n"),
      (["--split", "Theme=A:nan,B:1"], "Error: --split takes EXPERIMENT=VARIANT:WEIGHT,VARIANT:WEIGHT (weights from above 0 to 10⁹), not 'Theme=A:nan,B:1'.\n"),
      (["--covariate", "revenue=purchase:price"], "Error: --covariate sums the export's own events before each device's first exposure: pass --preset or --map for an export.\n"),
      (["--ratio", "r=revenue"], "Error: --ratio takes NAME=NUMERATOR/DENOMINATOR (two metrics), not 'r=revenue'.\n"),
      (["--quantiles", "revenue=0.5,1.5"], "Error: --quantiles takes METRIC=Q,Q (up to 8, each from 0.01 to 0.99), not 'revenue=0.5,1.5'.\n"),
      (["--winsorize", "revenue=0.3"], "Error: --winsorize takes METRIC=PERCENTILE, from 0.5 to 0.999 (e.g. revenue=0.99), not 'revenue=0.3'.\n"),
      (["--map", "/nonexistent/map.json"], "Error: --map /nonexistent/map.json: cannot be read: name a JSON file that describes the export (docs/analyze.md).\n"),
      (["--time", "unix", "--start", "24.11.2026"], "Error: --start takes a date as YYYY-MM-DD, not '24.11.2026'.\n"),
    ] {
      let result = try BenchProcess.run(["analyze", "e.csv"] + options)
      #expect(result.status == 64)
      #expect(result.standardError.hasPrefix(message), "\(options)")
    }
    let events = try BenchProcess.run(["analyze", "e.csv", "--outcome-events"])
    #expect(events.standardError.hasPrefix("Error: --outcome-events goes with --outcomes: add --outcomes outcomes.csv.\n"))
  }
}

/// `bench analyze --exclude-variant`: an experiment's exposures that are no arm, left out and said.
@Suite struct ExcludedVariantCommandTests {
  @Test func excludedExposuresAreCountedInTheClosingLines() throws {
    let events = try BenchProcess.temporaryFile("""
      id_for_vendor,experiment,variant,reason,day
      d1,Paywall,holdout,displayed,0
      d2,Paywall,Control,displayed,0
      d3,Paywall,annual_first,displayed,1

      """)
    let out = try temporaryFolder()
    let result = try BenchProcess.run(["analyze", events, "--exclude-variant", "Paywall=holdout", "--out", out.path, "--name", "held"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError == "Left out 1 exposure of Paywall that is no arm (holdout 1).\n")
    let report = try String(contentsOf: out.appendingPathComponent("held/report.md"), encoding: .utf8)
    #expect(report.contains("baseline Control (named as a control is)"))
    let bad = try BenchProcess.run(["analyze", events, "--exclude-variant", "Paywall"])
    #expect(bad.status != 0 && bad.standardError.contains("--exclude-variant takes NAME=VALUE, not 'Paywall'."), "\(bad.standardError)")
  }
}

/// `bench analyze`: a metric's event spelled otherwise in some rows is said, and `--fold-event-case`
/// counts every spelling (docs/analyze.md, "Spellings").
@Suite struct EventSpellingCommandTests {
  @Test func otherSpellingsAreSaidAndFoldingCountsThem() throws {
    let export = try BenchProcess.temporaryFile(
      [
        #"{"amplitude_id": 1, "event_time": "2026-10-20 10:00:00", "event_type": "$exposure", "event_properties": {"flag_key": "paywall", "variant": "control"}}"#,
        #"{"amplitude_id": 2, "event_time": "2026-10-20 10:00:00", "event_type": "$exposure", "event_properties": {"flag_key": "paywall", "variant": "annual"}}"#,
        #"{"amplitude_id": 1, "event_time": "2026-10-21 10:00:00", "event_type": "subscription_started", "event_properties": {}}"#,
        #"{"amplitude_id": 2, "event_time": "2026-10-21 10:00:00", "event_type": "Subscription_Started", "event_properties": {}}"#,
      ].joined(separator: "\n") + "\n", fileExtension: "jsonl")
    let out = try temporaryFolder()
    let arguments = ["analyze", export, "--preset", "amplitude", "--metric", "subscribed=subscription_started", "--out", out.path]
    let exact = try BenchProcess.run(arguments)
    #expect(exact.status == 0, "\(exact.standardError)")
    #expect(exact.standardError.contains(
      "warning: --metric subscribed=subscription_started counts 'subscription_started' (1 row) and not 'Subscription_Started' "
        + "(1 row), the same name spelled otherwise: pass --fold-event-case to count every spelling.\n"))
    let folded = try BenchProcess.run(arguments + ["--fold-event-case", "--force"])
    #expect(folded.status == 0 && !folded.standardError.contains("spelled otherwise"), "\(folded.standardError)")
    let lab = try BenchProcess.run(["analyze", export, "--fold-event-case"])
    #expect(lab.standardError.contains("--fold-event-case matches an export's --metric events; the Lab table holds none"))
  }
}

/// `bench analyze` on the tools' own exports, and what a scenario-less analysis can be told.
@Suite struct AnalyzeExportTests {
  static let fixtures = repositoryRoot.appendingPathComponent("docs/examples/exports")

  /// An Amplitude export analysed as exported: the report, the counts and the rows it left out.
  @Test func anAmplitudeExportIsAnalysedAsExported() throws {
    let out = try temporaryFolder()
    let result = try BenchProcess.run([
      "analyze", Self.fixtures.appendingPathComponent("amplitude.jsonl").path, "--preset", "amplitude",
      "--metric", "purchased=purchase", "--metric", "revenue=purchase:price", "--out", out.path,
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("Analysed "))
    // Amplitude's export names no baseline and no variant of onboarding is named as a control is: the
    // first variant in the file stands in, and the run says so (paywall-copy's "control" settles its own).
    #expect(result.standardError == "Left out 2 rows without a unit id, 1 exposure naming no variant, 160 rows of other events.\n"
      + "warning: onboarding's baseline is video, the first variant in the file: no --baseline, scenario or control's name "
      + "(control, baseline, off, default, original) settles it; a file sorted another way would make another variant the "
      + "baseline: give --baseline onboarding=VARIANT.\n")
    let results = try json(out.appendingPathComponent("amplitude-analyze/results.json"))
    let experiments = try #require(results["experiments"] as? [[String: Any]])
    #expect(Set(experiments.compactMap { $0["name"] as? String }) == ["onboarding", "paywall-copy"])
    let report = try String(contentsOf: out.appendingPathComponent("amplitude-analyze/report.md"), encoding: .utf8)
    #expect(report.contains("revenue"))
    // Every eighth purchase carries no price (a 100% coupon): it counts, adds 0, and the report says how many.
    let expected = try #require(
      try json(Self.fixtures.appendingPathComponent("amplitude-expected.json"))["purchases"] as? [String: Int])
    let events = try #require(expected["events"]), without = try #require(expected["withoutProperty"])
    #expect(report.contains(
      "\n\(without) of \(events) purchase events have no price: each counts for revenue and adds 0 to it, as SQL's SUM does.\n"))
    let missing = try #require(results["missingProperties"] as? [[String: Any]])
    #expect(missing.count == 1)
    #expect(missing[0]["metric"] as? String == "revenue" && missing[0]["event"] as? String == "purchase")
    #expect(missing[0]["property"] as? String == "price")
    #expect(missing[0]["events"] as? Int == events && missing[0]["withoutProperty"] as? Int == without)
  }

  /// A property that is there but is no number still stops the run at its line; one that is
  /// always null is refused as a sum of zeros.
  @Test func aPropertyThatIsNoNumberNamesItsLine() throws {
    func export(_ price: String) throws -> String {
      try BenchProcess.temporaryFile(
        #"{"event_type": "$exposure", "amplitude_id": 1, "event_time": "2026-10-20 10:00:00.000000", "event_properties": {"flag_key": "T", "variant": "A"}}"#
          + "\n" + #"{"event_type": "purchase", "amplitude_id": 1, "event_time": "2026-10-20 11:00:00.000000", "event_properties": {"price": "#
          + price + "}}\n", fileExtension: "jsonl")
    }
    let out = try temporaryFolder()
    for (price, reason) in [
      (#""free""#, "price 'free' is not a number"),
      (#"{"amount": 1}"#, "is a purchase event whose 'price' is an object, not a number"),
    ] {
      let file = try export(price)
      let result = try BenchProcess.run([
        "analyze", file, "--preset", "amplitude", "--metric", "revenue=purchase:price", "--out", out.path, "--quiet",
      ])
      #expect(result.status == 1)
      #expect(result.standardError
        == "Error: \(file) line 2: \(reason); fix the row or pass --skip-malformed to leave such rows out\n")
    }
    let null = try export("null")
    let zeros = try BenchProcess.run([
      "analyze", null, "--preset", "amplitude", "--metric", "revenue=purchase:price", "--out", out.path, "--name", "n", "--quiet",
    ])
    #expect(zeros.status == 1)
    #expect(zeros.standardError
      == "Error: --metric revenue=purchase:price: every 'purchase' event's 'price' is null or empty: the sum would be 0 for every device\n")
  }

  /// A misspelt event is refused word for word, with the name the file has.
  @Test func aMisspeltEventIsRefusedWithTheFilesName() throws {
    let out = try temporaryFolder()
    let result = try BenchProcess.run([
      "analyze", Self.fixtures.appendingPathComponent("mixpanel.jsonl").path, "--preset", "mixpanel",
      "--metric", "purchased=purchase", "--out", out.path,
    ])
    let rows = try String(contentsOf: Self.fixtures.appendingPathComponent("mixpanel.jsonl"), encoding: .utf8)
      .split(separator: "\n").filter { $0.hasPrefix(#"{"event": "Purchase""#) }.count
    #expect(rows > 100)
    #expect(result.status == 1)
    #expect(result.standardError
      == "Error: --metric purchased=purchase: no row is a 'purchase' event; the file has 'Purchase' (\(rows) rows)\n")
  }

  /// Without a scenario the options give what a scenario would: a
  /// covariate adjusts revenue (CUPED), a ratio gets the delta method,
  /// quantiles and a winsorized amount get their own comparisons, a split
  /// the sample ratio check. Metrics they name must exist.
  @Test func derivedMetricsAndCovariatesComeFromOptions() throws {
    let out = try temporaryFolder()
    let export = Self.fixtures.appendingPathComponent("amplitude.jsonl").path
    let common = [
      "analyze", export, "--preset", "amplitude", "--metric", "purchased=purchase", "--metric", "revenue=purchase:price",
      "--out", out.path, "--quiet",
    ]
    let result = try BenchProcess.run(common + [
      "--covariate", "revenue=purchase:price", "--ratio", "per-buyer=revenue/purchased", "--quantiles", "revenue=0.5",
      "--winsorize", "revenue=0.9", "--split", "paywall-copy=control:1,annual-first:1",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let experiments = try #require(try json(out.appendingPathComponent("amplitude-analyze/results.json"))["experiments"] as? [[String: Any]])
    let paywall = try #require(experiments.first { $0["name"] as? String == "paywall-copy" })
    let tests = try #require(paywall["analysis"] as? [[String: Any]]).map { analysis in
      "\(analysis["metric"]!):\(((analysis["comparisons"] as? [[String: Any]])?.first?["test"]).map { "\($0)" } ?? "")"
    }
    #expect(tests == [
      "purchased:two-proportion-z", "revenue:cuped-welch-t", "per-buyer:delta-method-z", "revenue.p50:quantile-z",
      "revenue.w90:welch-t",
    ])
    #expect((paywall["srm"] as? [String: Any])?["expected"] as? [String: Double] == ["control": 0.5, "annual-first": 0.5])
    let unknown = try BenchProcess.run(common + ["--ratio", "r=revenue/refunds"])
    #expect(unknown.status == 1)
    #expect(unknown.standardError == "Error: --ratio r: 'refunds' is not a metric of the analysis (metrics: purchased, revenue)\n")
    let conversion = try BenchProcess.run(common + ["--winsorize", "purchased=0.9"])
    #expect(conversion.standardError == "Error: --winsorize: 'purchased' is a conversion: it takes an amount (metrics: purchased, revenue)\n")
  }

  /// Each process hashes with a seed of its own, so anything read from a
  /// dictionary in its order would change from run to run: two runs of one
  /// analysis with every option that fills one write the same bytes.
  @Test func twoRunsWriteTheSameBytes() throws {
    let export = Self.fixtures.appendingPathComponent("segment.jsonl").path
    var written: [Data] = []
    for _ in 0..<2 {
      let out = try temporaryFolder()
      let result = try BenchProcess.run([
        "analyze", export, "--preset", "segment", "--metric", "bought=Order Completed", "--metric", "revenue=Order Completed:revenue",
        "--split", "onboarding=short:0.1,long:0.2,video:0.7", "--split", "paywall-copy=control:0.3,annual-first:0.3",
        "--quantiles", "revenue=0.5,0.9", "--winsorize", "revenue=0.95", "--ratio", "r=revenue/bought",
        "--covariate", "revenue=Order Completed:revenue", "--out", out.path, "--name", "s", "--quiet",
      ])
      #expect(result.status == 0, "\(result.standardError)")
      written.append(try Data(contentsOf: out.appendingPathComponent("s/results.json")) + Data(contentsOf: out.appendingPathComponent("s/report.md")))
    }
    #expect(written[0] == written[1])
  }

  /// A `--map` file reads a tool without a preset; a file whose fields are
  /// elsewhere names every field no row had, in one message.
  @Test func aMapReadsAnotherToolAndMissingFieldsAreListedTogether() throws {
    let map = try BenchProcess.temporaryFile(#"""
      {"format": "jsonl", "event": "name", "unit": "who", "time": "at", "timeFormat": "unix-ms",
       "exposure": {"event": "shown", "experiment": "props.test", "variant": "props.arm"}}
      """#)
    let events = try BenchProcess.temporaryFile(
      #"{"name": "shown", "who": "u1", "at": 1792458268000, "props": {"test": "T", "arm": "A"}}"# + "\n"
        + #"{"name": "shown", "who": "u2", "at": 1792458269000, "props": {"test": "T", "arm": "B"}}"# + "\n", fileExtension: "jsonl")
    let out = try temporaryFolder()
    let result = try BenchProcess.run(["analyze", events, "--map", map, "--split", "T=A:1,B:1", "--out", out.path, "--name", "m"])
    #expect(result.status == 0, "\(result.standardError)")
    let results = try json(out.appendingPathComponent("m/results.json"))
    let variants = try #require((results["experiments"] as? [[String: Any]])?.first?["variants"] as? [[String: Any]])
    #expect(variants.map { $0["expectedFirstExposed"] as? Double } == [1, 1])
    let wrong = try BenchProcess.run(["analyze", events, "--preset", "segment", "--out", out.path])
    #expect(wrong.status == 1)
    #expect(wrong.standardError == "Error: \(events): no row has 'event', 'userId', 'anonymousId', 'timestamp', 'type', 'properties.experiment_id', 'properties.experiment_name', 'properties.variation_id', 'properties.variation_name': check --preset, or describe the file's fields with --map FILE.json (docs/analyze.md)\n")
    let split = try BenchProcess.run(["analyze", events, "--map", map, "--split", "T=A:1,C:1", "--out", out.path, "--name", "m"])
    #expect(split.standardError == "Error: --split T: the table shows B, which the split does not list; no exposure shows C: every device missing from it is a sample ratio mismatch already\n")
    // An exposure event no row has: the events the file does have, nearest first.
    let misspelt = try BenchProcess.temporaryFile(#"""
      {"format": "jsonl", "event": "name", "unit": "who", "time": "at", "timeFormat": "unix-ms",
       "exposure": {"event": "Shown", "experiment": "props.test", "variant": "props.arm"}}
      """#)
    let exposure = try BenchProcess.run(["analyze", events, "--map", misspelt, "--out", out.path, "--name", "m"])
    #expect(exposure.status == 1)
    #expect(exposure.standardError == "Error: \(events): has no exposures to count: no row is a Shown event with props.test and "
      + "props.arm; the file has 'shown' (2 rows); check --preset, or describe the file with --map FILE.json\n")
  }
}

/// A JSON file's top-level object.
func json(_ url: URL) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
}

/// `bench analyze` on a table with no scenario and no truth: the decision
/// follows the data, with the planned effect from --mde.
@Suite struct AnalyzeDecisionTests {
  /// An events table of `perArm` devices a variant, of which the first
  /// `converted[arm]` purchased, and its outcomes table.
  private func tables(perArm: Int, converted: [Int]) throws -> (events: String, outcomes: String) {
    var events = "experiment,variant,reason,id_for_vendor,day\n", outcomes = "id_for_vendor,metric,value\n"
    for (arm, variant) in ["A", "B"].enumerated() {
      for device in 0..<perArm {
        let id = "\(variant)-\(device)"
        events += "Paywall,\(variant),displayed,\(id),0\n"
        outcomes += "\(id),purchased,\(device < converted[arm] ? 1 : 0)\n"
      }
    }
    return (try BenchProcess.temporaryFile(events), try BenchProcess.temporaryFile(outcomes))
  }

  private func analyse(_ tables: (events: String, outcomes: String), _ extra: [String] = []) throws -> (status: Int32, report: String, results: [String: Any]) {
    let out = try temporaryFolder()
    let result = try BenchProcess.run([
      "analyze", tables.events, "--outcomes", tables.outcomes, "--baseline", "Paywall=A", "--kind", "purchased=conversion",
      "--name", "t", "--out", out.path, "--quiet",
    ] + extra)
    #expect(result.status == 0, "\(result.standardError)")
    let report = try String(contentsOf: out.appendingPathComponent("t/report.md"), encoding: .utf8)
    return (result.status, report, try json(out.appendingPathComponent("t/results.json")))
  }

  /// An exported table like the issue's: 40,000 users, purchased +21.9%
  /// (scipy's two-proportion z test: p = 1.7·10⁻⁶), which was "not
  /// trustworthy: underpowered" because a 10% lift at a 5% baseline needs
  /// 31,234 devices an arm; it ships.
  @Test func aClearResultOnAnExportedTableShips() throws {
    let (_, report, results) = try analyse(try tables(perArm: 20_000, converted: [1_000, 1_219]))
    #expect(report.contains("- **Paywall**, purchased: **Ship B**: +21.9% (+12.4% to +32.2%), adjusted p = 1.7×10⁻⁶."))
    #expect(report.contains("| B | purchased | **ship** | +21.9% (+12.4 to +32.2) | 1.7×10⁻⁶ |\n"))
    #expect(!report.contains("True lift") && !report.contains("Right?"))
    let experiments = try #require(results["experiments"] as? [[String: Any]])
    let analysis = try #require((experiments[0]["analysis"] as? [[String: Any]])?.first)
    #expect(analysis["verdict"] as? String == "winner")
    #expect((analysis["recommendation"] as? [String: Any])?["variant"] as? String == "B")
  }

  /// A small test that finds nothing says how many more devices it needs,
  /// and --mde changes that number as the power calculation says.
  @Test func aSmallNonSignificantTestIsInconclusiveWithTheDevicesNeeded() throws {
    let small = try tables(perArm: 500, converted: [50, 55])
    let (_, report, results) = try analyse(small)
    let required = 14_751  // Power.sampleSize(baseline: 0.1, treatment: 0.11, alpha: 0.05, power: 0.8)
    #expect(report.contains("- **Paywall**, purchased: **Keep running**: about \(NumberFormat.count(required - 500)) more devices per variant to detect a 10% lift."))
    let experiments = try #require(results["experiments"] as? [[String: Any]])
    let analysis = try #require((experiments[0]["analysis"] as? [[String: Any]])?.first)
    let comparison = try #require((analysis["comparisons"] as? [[String: Any]])?.first)
    let decision = try #require(comparison["decision"] as? [String: Any])
    #expect(decision["action"] as? String == "inconclusive")
    #expect(decision["devicesNeeded"] as? Int == required - 500)
    let (_, larger, _) = try analyse(small, ["--mde", "0.5"])
    #expect(larger.contains("**Keep running**: about ") && larger.contains("more devices per variant to detect a 50% lift."))
  }

  /// What the command says when it is done: one experiment in the singular,
  /// and report.html among the files when it wrote one.
  @Test func theClosingLinesNameWhatWasWritten() throws {
    let small = try tables(perArm: 20, converted: [2, 3])
    let out = try temporaryFolder()
    let result = try BenchProcess.run([
      "analyze", small.events, "--outcomes", small.outcomes, "--name", "t", "--out", out.path, "--html",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput == """
      Analysed 40 devices in 1 experiment.
      Wrote \(out.appendingPathComponent("t/report.md").path), report.html and results.json

      """)
    let help = try BenchProcess.run(["analyze", "--help"])
    #expect(help.standardOutput.components(separatedBy: "(default: UTC)").count == 2)
  }

  @Test func analysisOptionsOutsideTheirRangesAreClearErrors() throws {
    let small = try tables(perArm: 20, converted: [2, 3])
    for (option, value, message) in [
      ("--alpha", "0.7", "Error: --alpha must lie between 0 and 0.5, e.g. 0.05; got 0.7.\n"),
      ("--mde", "0", "Error: --mde must lie between 0.001 and 10: a relative lift such as 0.05 for 5%; got 0.0.\n"),
      ("--power", "1", "Error: --power must lie between 0.5 and 1, e.g. 0.8; got 1.0.\n"),
    ] {
      let result = try BenchProcess.run(["analyze", small.events, "--outcomes", small.outcomes, option, value])
      #expect(result.status == 64)
      #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
    }
  }
}
