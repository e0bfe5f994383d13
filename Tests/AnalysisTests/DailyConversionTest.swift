import Results

/// An A/B test of one conversion, "A" against "B", read at the end of each of `looks` days with `perLook`
/// new devices an arm a day; each day's conversions are drawn from `stream` (binomial by its normal
/// approximation, a few hundred devices a day), B's at `rate` times 1 + `lift`.
func dailyConversionTest(looks: Int, perLook: Int, rate: Double, lift: Double, stream: inout SeededStream) -> ExperimentResult {
  var a = 0, b = 0
  var days: [[[MetricSummary]]] = []
  for day in 1...looks {
    func draw(_ p: Double) -> Int {
      max(0, min(perLook, Int((Double(perLook) * p + (Double(perLook) * p * (1 - p)).squareRoot() * stream.normal()).rounded())))
    }
    a += draw(rate)
    b += draw(rate * (1 + lift))
    days.append([
      conversionVariant("A", conversions: a, of: day * perLook).metrics, conversionVariant("B", conversions: b, of: day * perLook).metrics,
    ])
  }
  let variants = [conversionVariant("A", conversions: a, of: looks * perLook), conversionVariant("B", conversions: b, of: looks * perLook)]
  return ExperimentResult(
    name: "Paywall", source: "local", baseline: "A", variants: variants, mixedDevices: 0, transitions: [], dailyNewExposures: [],
    dailyMetrics: days, srm: nil, analysis: [])
}
