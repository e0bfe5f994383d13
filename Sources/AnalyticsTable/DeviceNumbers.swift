/// Device ids numbered in the order they first appear in the tables, so the
/// logs keep their records in arrays by number, found from the id's bytes in
/// the row (`TextNumbers`) once per row.
struct DeviceNumbers {
  private var ids = TextNumbers()
  /// Whether each device had a "displayed" event or an outcome: the devices a
  /// report counts (a device only activated is not one).
  private var counted: [Bool] = []
  private(set) var countedDevices = 0

  /// Every device numbered so far, counted or not.
  var count: Int { counted.count }

  /// The device's number, given on its first appearance.
  mutating func number(of id: ArraySlice<UInt8>) -> Int {
    let (number, isNew) = ids.number(of: id)
    if isNew { counted.append(false) }
    return number
  }

  /// Notes that the device counts in the report.
  mutating func count(_ number: Int) {
    guard !counted[number] else { return }
    counted[number] = true
    countedDevices += 1
  }
}

/// Names (experiments, variants, versions) numbered in the order they first
/// appear, so that per-device records hold small numbers rather than strings;
/// a name becomes a `String` once, when it first appears.
struct NameNumbers {
  private var texts = TextNumbers()
  private(set) var names: [String] = []

  /// The number of a name read from a row, valid UTF-8 (`TableReader` checks).
  mutating func number(of name: ArraySlice<UInt8>) -> Int32 {
    let (number, isNew) = texts.number(of: name)
    if isNew { names.append(String(decoding: name, as: UTF8.self)) }
    return Int32(number)
  }

  /// The name's number, if it has appeared.
  func existingNumber(of name: String) -> Int32? {
    texts.existingNumber(of: ArraySlice(name.utf8)).map(Int32.init)
  }
}
