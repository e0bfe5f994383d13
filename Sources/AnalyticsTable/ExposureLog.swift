/// The "displayed" events, per experiment and device, in the order they came.
struct ExposureLog {
  /// One variant a device was shown in an experiment: the first time and day
  /// it was shown, and the app versions (`NameNumbers` of the log) whose weights
  /// selected it (the version of the activation that gave the device the
  /// variant, else the one that showed it) and that showed it; "" is the
  /// version of a table without a version column.
  struct Shown {
    /// The variant's number in its experiment's `variants`.
    var variant: Int32
    var selectedIn: Int32
    var shownIn: Int32
    var day: Int
    /// The instant, in nanoseconds (`EventTime.Instant`): what outcomes are
    /// ordered against. Later instants never fall on earlier days.
    var time: Int64
  }

  /// Each variant a device was shown, once, by the time it was first shown;
  /// events of one time keep the order they came in. The first is kept in
  /// place, so that a device shown a single variant, the usual case,
  /// allocates nothing.
  struct DeviceRecord {
    private(set) var first: Shown
    private(set) var others: [Shown] = []

    init(_ shown: Shown) {
      first = shown
    }

    /// How many variants the device was shown.
    var count: Int { 1 + others.count }

    /// The variant at `index` in order of day.
    func shown(_ index: Int) -> Shown {
      index == 0 ? first : others[index - 1]
    }

    mutating func shiftDays(by offset: Int) {
      first.day += offset
      for index in others.indices { others[index].day += offset }
    }

    mutating func record(_ shown: Shown) {
      if others.isEmpty && shown.variant == first.variant {
        if shown.time < first.time { first = shown }
        return
      }
      var variants = [first] + others
      if let index = variants.firstIndex(where: { $0.variant == shown.variant }) {
        guard shown.time < variants[index].time else { return }
        variants.remove(at: index)
      }
      let position = variants.firstIndex { $0.time > shown.time } ?? variants.count
      variants.insert(shown, at: position)
      first = variants[0]
      others = Array(variants.dropFirst())
    }
  }

  struct ExperimentLog {
    /// The devices shown the experiment, in the order of their first "displayed" event.
    var records: [DeviceRecord] = []
    /// Each record's device number.
    var devices: [Int] = []
    /// By device number, the device's place in `records`, or −1.
    fileprivate var recordIndex: [Int32] = []
    /// The variants shown, numbered in the order they were first shown.
    var variants = NameNumbers()

    fileprivate mutating func record(
      device: Int, variant: UnsafeBufferPointer<UInt8>, at instant: EventTime.Instant, selectedIn: Int32, shownIn: Int32
    ) {
      let place = variants.number(of: variant)
      if recordIndex.count <= device { recordIndex += repeatElement(-1, count: device + 1 - recordIndex.count) }
      let shown = Shown(variant: place, selectedIn: selectedIn, shownIn: shownIn, day: instant.day, time: instant.nanoseconds)
      if recordIndex[device] < 0 {
        recordIndex[device] = Int32(records.count)
        records.append(DeviceRecord(shown))
        devices.append(device)
      } else {
        records[Int(recordIndex[device])].record(shown)
      }
    }
  }

  /// The variant a device holds in an experiment, from the activations, and
  /// the version whose activation gave it, by device number (−1: none).
  private struct Held {
    var variants: [Int32] = []
    var versions: [Int32] = []

    mutating func set(device: Int, variant: Int32, version: Int32) {
      if variants.count <= device {
        variants += repeatElement(-1, count: device + 1 - variants.count)
        versions += repeatElement(-1, count: device + 1 - versions.count)
      }
      variants[device] = variant
      versions[device] = version
    }

    func version(device: Int, ifHolding variant: Int32) -> Int32? {
      device < variants.count && variants[device] == variant ? versions[device] : nil
    }
  }

  private(set) var experiments: [ExperimentLog] = []
  /// The experiments shown, in the order of their first "displayed" event.
  private(set) var experimentOrder: [String] = []
  var lastDay = Int.min
  var firstDay = Int.max
  /// Experiments of any event; variant names as activations give them; and
  /// versions: the numbers in `Held` and `Shown`.
  private var experimentNumbers = NameNumbers()
  private var heldVariants = NameNumbers()
  private(set) var versions = NameNumbers()
  /// By experiment number: its activations, and its place in `experiments` or −1.
  private var held: [Held] = []
  private var logIndex: [Int] = []

  /// The log of the experiment, if any device was shown it.
  func log(of experiment: String) -> ExperimentLog? {
    guard let number = experimentNumbers.existingNumber(of: experiment), logIndex[Int(number)] >= 0 else { return nil }
    return experiments[logIndex[Int(number)]]
  }

  /// The experiment's number, given on its first appearance in any event.
  private mutating func number(of experiment: UnsafeBufferPointer<UInt8>) -> Int {
    let number = Int(experimentNumbers.number(of: experiment))
    if number == held.count {
      held.append(Held())
      logIndex.append(-1)
    }
    return number
  }

  /// Follows an activation (a variant) or a deactivation (nil): a device
  /// that gains a variant it did not hold had it selected by that version.
  mutating func track(
    device: Int, experiment: UnsafeBufferPointer<UInt8>, variant: UnsafeBufferPointer<UInt8>?, version: UnsafeBufferPointer<UInt8>
  ) {
    let experiment = number(of: experiment)
    guard let variant else {
      held[experiment].set(device: device, variant: -1, version: -1)
      return
    }
    let number = heldVariants.number(of: variant)
    if held[experiment].version(device: device, ifHolding: number) == nil {
      held[experiment].set(device: device, variant: number, version: versions.number(of: version))
    }
  }

  mutating func record(
    device: Int, experiment name: UnsafeBufferPointer<UInt8>, variant: UnsafeBufferPointer<UInt8>, at instant: EventTime.Instant,
    version: UnsafeBufferPointer<UInt8>
  ) {
    let experiment = number(of: name)
    if logIndex[experiment] < 0 {
      logIndex[experiment] = experiments.count
      experiments.append(ExperimentLog())
      experimentOrder.append(experimentNumbers.names[experiment])
    }
    lastDay = max(lastDay, instant.day)
    firstDay = min(firstDay, instant.day)
    let shownIn = versions.number(of: version)
    let selectedIn = held[experiment].version(device: device, ifHolding: heldVariants.number(of: variant)) ?? shownIn
    experiments[logIndex[experiment]].record(device: device, variant: variant, at: instant, selectedIn: selectedIn, shownIn: shownIn)
  }

  /// Moves every recorded day by `offset`: calendar days to days of the run.
  mutating func shiftDays(by offset: Int) {
    for experiment in experiments.indices {
      for record in experiments[experiment].records.indices {
        experiments[experiment].records[record].shiftDays(by: offset)
      }
    }
    lastDay += offset
    firstDay += offset
  }
}
