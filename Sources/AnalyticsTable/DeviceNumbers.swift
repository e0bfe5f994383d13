/// Device ids numbered in the order they first appear in the tables, so the
/// logs keep their records in arrays by number: a row hashes its device's id
/// once, where string-keyed dictionaries hashed it at every lookup.
struct DeviceNumbers {
  private var numbers: [String: Int] = [:]
  /// Whether each device had a "displayed" event or an outcome: the devices a
  /// report counts (a device only activated is not one).
  private var counted: [Bool] = []
  private(set) var countedDevices = 0

  /// The device's number, given on its first appearance.
  mutating func number(of id: String) -> Int {
    if let number = numbers[id] { return number }
    let number = counted.count
    numbers[id] = number
    counted.append(false)
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
/// appear, so that per-device records hold small numbers rather than strings.
/// Rows of one device repeat the same few names, and comparing a short name
/// with the last one costs less than hashing it.
struct NameNumbers {
  private var numbers: [String: Int32] = [:]
  private(set) var names: [String] = []
  private var last: (name: String, number: Int32)?

  mutating func number(of name: String) -> Int32 {
    if let last, last.name == name { return last.number }
    let number: Int32
    if let known = numbers[name] {
      number = known
    } else {
      number = Int32(names.count)
      numbers[name] = number
      names.append(name)
    }
    last = (name, number)
    return number
  }

  /// The name's number, if it has appeared.
  func existingNumber(of name: String) -> Int32? {
    numbers[name]
  }
}
