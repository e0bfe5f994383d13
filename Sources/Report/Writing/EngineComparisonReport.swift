import Results

/// One plan's replications read by several analysis engines, side by side:
/// per experiment, how often each engine's results page would have told the
/// team to ship the right variant, the wrong one, or nothing. Formats what
/// the calibration says; computes no statistics.
public enum EngineComparisonReport {
  /// `rules` holds, in `calibration`'s order of engines, how each decides with the plan's values of
  /// its settings (`AnalysisEngine.rule`), so that a comparison run with other thresholds says so.
  public static func document(
    scenario: String, description: String, devices: Int, days: Int, seed: UInt64, calibration: EngineCalibration,
    rules: [String]
  ) -> ReportDocument {
    var blocks: [ReportBlock] = [.heading(level: 1, "Lab Bench engines: \(scenario)")]
    if !description.isEmpty { blocks.append(.quote(ReportText(authored: description))) }
    blocks.append(.paragraph([ReportText(
      "The same \(NumberFormat.count(calibration.replications)) replications of the plan (\(NumberFormat.count(devices)) devices "
        + "over \(days) day\(days == 1 ? "" : "s"), seed \(seed)), each read at the run's end by each engine as its results "
        + "page decides (docs/engines.md), with 95% intervals. A ship is right when the variant truly beats the baseline on a "
        + "success metric and truly loses less than each guardrail's margin; a wrong sign ships a variant whose true lift is "
        + "below 0.")]))
    blocks.append(.list(zip(calibration.engines, rules).map { engine, rule in "\(strong: engine.title): " + ReportText(rule) }))
    let experiments = calibration.engines.first?.experiments.map(\.name) ?? []
    for (index, name) in experiments.enumerated() {
      blocks.append(.heading(level: 2, ReportText(name)))
      var table = ReportTable(
        columns: [.init("Engine")]
          + ["Right ship", "Wrong ship", "Keep baseline", "Keep running", "Withheld", "Wrong sign"]
          .map { .init(ReportText($0), numeric: true) })
      for engine in calibration.engines where index < engine.experiments.count {
        table.append([ReportText("\(engine.title) (\(engine.name))")] + cells(engine.experiments[index].rates))
      }
      blocks.append(.table(table))
      let looked = calibration.engines.compactMap { engine in
        index < engine.experiments.count ? engine.experiments[index].dailyLooks.map { (engine, $0) } : nil
      }
      guard !looked.isEmpty else { continue }
      blocks.append(.paragraph([
        "Read at the end of every day, acting on the first call (a ship or a roll-back): what a team that watches the page "
          + "does. The first call's day counts from 0, the plan's first day: its median and quartiles over the replications "
          + "that made one."
      ]))
      var daily = ReportTable(
        columns: [.init("Engine")]
          + ["Right ship", "Wrong ship", "Keep baseline", "Keep running", "Withheld", "Wrong sign", "Called", "First call (day)"]
          .map { .init(ReportText($0), numeric: true) })
      for (engine, looks) in looked {
        let day = looks.firstCallDay.map { "\($0.median) (\($0.lower)–\($0.upper))" } ?? "–"
        daily.append(
          [ReportText("\(engine.title) (\(engine.name))")] + cells(looks.rates)
            + [ReportText(NumberFormat.count(looks.called)), ReportText(day)])
      }
      blocks.append(.table(daily))
    }
    return ReportDocument(blocks: blocks)
  }

  /// The six outcome shares of a row; without a truth, ships are not told right from wrong.
  private static func cells(_ rates: DecisionRates) -> [ReportText] {
    let texts = rates.knowsTruth
      ? [rates.rightShip, rates.wrongShip, rates.keepBaseline, rates.keepRunning, rates.withheld, rates.wrongSign]
        .map(NumberFormat.compactShare)
      : [
        NumberFormat.compactShare(Share(
          count: rates.rightShip.count + rates.wrongShip.count, of: rates.rightShip.of, lower: nil, upper: nil)) + " (ship)",
        "–", NumberFormat.compactShare(rates.keepBaseline), NumberFormat.compactShare(rates.keepRunning),
        NumberFormat.compactShare(rates.withheld), "–",
      ]
    return texts.map { ReportText($0) }
  }
}
