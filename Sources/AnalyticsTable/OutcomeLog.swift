/// The outcomes by device and metric; a device without a row for a metric has 0.
struct OutcomeLog {
  /// Whether rows are events to add up rather than one value per device.
  let summing: Bool
  private var metricNumbers = NameNumbers()
  /// By metric, then device number; NaN where the device has no row (a
  /// recorded value is finite).
  private var values: [[Double]] = []
  private var nonBinary: [Bool] = []
  private var largest: [Double] = []

  init(summing: Bool = false) {
    self.summing = summing
  }

  /// Records a device's value of a metric, or adds it when rows are events;
  /// false, recording nothing, for a second row of a device and metric
  /// otherwise.
  mutating func record(device: Int, metric: UnsafeBufferPointer<UInt8>, value: Double) -> Bool {
    let index = Int(metricNumbers.number(of: metric))
    if index == values.count {
      values.append([])
      nonBinary.append(false)
      largest.append(0)
    }
    if values[index].count <= device { values[index] += repeatElement(.nan, count: device + 1 - values[index].count) }
    let previous = values[index][device]
    guard previous.isNaN || summing else { return false }
    let total = (previous.isNaN ? 0 : previous) + value
    // Events of a conversion are 1 each: the metric stays binary however many a device has.
    if value != 0 && value != 1 { nonBinary[index] = true }
    values[index][device] = total
    largest[index] = max(largest[index], abs(total))
    return true
  }

  /// Moves every value to its device's number in another numbering of
  /// `count` devices: by this numbering's device number, `numbers` gives it.
  mutating func renumberDevices(_ numbers: [Int], count: Int) {
    for metric in values.indices {
      var renumbered = Array(repeating: Double.nan, count: count)
      for (device, value) in values[metric].enumerated() { renumbered[numbers[device]] = value }
      values[metric] = renumbered
    }
  }

  /// The metrics, in the order of their first row.
  var metrics: [String] { metricNumbers.names }

  /// The metric's place in `metrics`, for `value(device:metric:)`.
  func index(of metric: String) -> Int? {
    metricNumbers.existingNumber(of: metric).map(Int.init)
  }

  /// The largest magnitude among the metric's values, 0 without any.
  func largestMagnitude(of metric: String) -> Double {
    index(of: metric).map { largest[$0] } ?? 0
  }

  /// The device's value of the metric at `index` (`index(of:)`), 0 without a row.
  func value(device: Int, metric index: Int) -> Double {
    guard device < values[index].count else { return 0 }
    let value = values[index][device]
    return value.isNaN ? 0 : value
  }

  /// Whether every value of the metric is 0 or 1: a conversion.
  func isBinary(_ metric: String) -> Bool {
    !(index(of: metric).map { nonBinary[$0] } ?? false)
  }
}
