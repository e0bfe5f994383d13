/// Outcome events with their times (a purchase, a conversion event): a
/// device's value of a metric in an experiment adds up its events at or
/// after its first exposure to that experiment, so what a device did before
/// it was shown a variant never counts toward the variant. The events of a
/// device are summed before their first exposure too, for a covariate.
///
/// Events are kept as columns (device, metric, time, value) in the order
/// read, then grouped by device once (`group`).
struct TimedOutcomes {
  private(set) var metrics: [String] = []
  private var devices: [Int32] = []
  private var metricIndices: [Int32] = []
  private var times: [Int64] = []
  private var values: [Double] = []
  private var nonBinary: [Bool] = []
  /// After `group`: by device number, where its events start in `order`.
  private var starts: [Int] = []
  private var order: [Int32] = []
  /// After `group`: by metric, the largest Σ|value| of one device, a bound on any of its sums.
  private(set) var largest: [Double] = []

  var isEmpty: Bool { devices.isEmpty }

  /// The metric's place in `metrics`, added on first use.
  mutating func metric(named name: String) -> Int {
    if let index = metrics.firstIndex(of: name) { return index }
    metrics.append(name)
    nonBinary.append(false)
    return metrics.count - 1
  }

  mutating func record(device: Int, metric: Int, time: Int64, value: Double) {
    devices.append(Int32(device))
    metricIndices.append(Int32(metric))
    times.append(time)
    values.append(value)
    if value != 0 && value != 1 { nonBinary[metric] = true }
  }

  /// Moves every event to its device's number in another numbering: by this
  /// numbering's device number, `numbers` gives it (before `group`).
  mutating func renumberDevices(_ numbers: [Int]) {
    for index in devices.indices { devices[index] = Int32(numbers[Int(devices[index])]) }
  }

  /// Whether every event's value of the metric is 0 or 1.
  func isBinary(_ metric: Int) -> Bool {
    !nonBinary[metric]
  }

  /// Groups the events by device (a counting sort, stable: a device's events
  /// keep the order read) and bounds each metric's sums.
  mutating func group(deviceCount: Int) {
    largest = Array(repeating: 0, count: metrics.count)
    // Without events there is nothing to group, and no index of every device to keep.
    guard !devices.isEmpty else { return }
    starts = Array(repeating: 0, count: deviceCount + 1)
    for device in devices { starts[Int(device) + 1] += 1 }
    for index in 0..<deviceCount { starts[index + 1] += starts[index] }
    var next = starts
    order = Array(repeating: 0, count: devices.count)
    for (event, device) in devices.enumerated() {
      order[next[Int(device)]] = Int32(event)
      next[Int(device)] += 1
    }
    var magnitudes = Array(repeating: 0.0, count: metrics.count)
    for device in 0..<deviceCount where starts[device] < starts[device + 1] {
      for slot in starts[device]..<starts[device + 1] {
        let event = Int(order[slot])
        magnitudes[Int(metricIndices[event])] += abs(values[event])
      }
      for metric in metrics.indices where magnitudes[metric] != 0 {
        largest[metric] = max(largest[metric], magnitudes[metric])
        magnitudes[metric] = 0
      }
    }
  }

  /// Adds the device's events at or after `time` into `after` and those
  /// before it into `before`, by metric (after `group`).
  func sum(device: Int, splitAt time: Int64, after: inout [Double], before: inout [Double]) {
    guard device + 1 < starts.count else { return }
    for slot in starts[device]..<starts[device + 1] {
      let event = Int(order[slot]), metric = Int(metricIndices[event])
      if times[event] >= time {
        after[metric] += values[event]
      } else {
        before[metric] += values[event]
      }
    }
  }
}
