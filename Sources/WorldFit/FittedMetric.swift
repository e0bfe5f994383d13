import AnalyticsTable
import ScenarioFormat

/// A metric's baselines read off an export for `bench fit` (docs/world.md):
/// a conversion is the share of a segment's devices with one of its events
/// over the export; an amount (an event's property) is the mean of the
/// devices' sums, 0 for a device without the event, with a gamma
/// distribution of the same mean and variance over all devices. What a
/// device of the fitted world shown only baselines would have.
public struct FittedMetric: Sendable {
  public let name: String
  public let isConversion: Bool
  /// Over every device, and per segment in the order of the world's segments.
  public let baseline: Double
  public let segmentBaselines: [Double]
  /// The gamma's shape, mean² / variance, within the scenario's range; nil for a conversion.
  public let shape: Double?

  init(_ metric: EventsAnalysis.EventMetric, index: Int, segments: [ObservedSegment]) {
    name = metric.name
    isConversion = metric.property == nil
    let devices = segments.reduce(0) { $0 + Double($1.devices) }
    let counted = isConversion ? segments.map { $0.metricDevices[index] } : segments.map { $0.metricSums[index] }
    baseline = devices > 0 ? counted.reduce(0, +) / devices : 0
    segmentBaselines = zip(counted, segments).map { $1.devices > 0 ? $0 / Double($1.devices) : 0 }
    if isConversion {
      shape = nil
    } else {
      let squares = segments.reduce(0) { $0 + $1.metricSquares[index] }
      let variance = devices > 1 ? (squares - devices * baseline * baseline) / (devices - 1) : 0
      let moments = variance > 0 ? baseline * baseline / variance : ScenarioLimits.gammaShape.upperBound
      shape = min(max(moments, ScenarioLimits.gammaShape.lowerBound), ScenarioLimits.gammaShape.upperBound)
    }
  }
}
