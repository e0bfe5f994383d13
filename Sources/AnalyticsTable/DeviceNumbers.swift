/// Device ids numbered in the order they first appear in the tables, so the
/// logs keep their records in arrays by number, found from the id's bytes in
/// the row (`TextNumbers`) once per row.
struct DeviceNumbers {
  /// The ids' numbers; `TableReader` lends them to its reading thread, which
  /// numbers each row's id as it splits the row.
  private var ids = TextNumbers()
  /// Whether each device had a "displayed" event or an outcome: the devices a
  /// report counts (a device only activated is not one).
  private var counted: [Bool] = []
  private(set) var countedDevices = 0

  /// Every device numbered so far, counted or not.
  var count: Int { ids.count }

  /// The device's number, given on its first appearance.
  mutating func number(of id: UnsafeBufferPointer<UInt8>) -> Int {
    ids.number(of: id).number
  }

  /// Takes the ids' numbers out, leaving none behind that a copy would share,
  /// to lend them to a table's reader; give them back with `giveBack(_:)`.
  mutating func takeIds() -> TextNumbers {
    var taken = TextNumbers()
    swap(&taken, &ids)
    return taken
  }

  mutating func giveBack(_ ids: consuming TextNumbers) {
    self.ids = ids
  }

  /// Numbers the devices of another table's numbering as if that table had
  /// been read after this one's: in its order, a device new here after all
  /// those here, and counted where it counted there. Returns, by the other
  /// numbering's device number, the number here.
  mutating func adopt(_ other: DeviceNumbers) -> [Int] {
    (0..<other.count).map { device in
      let number = ids.number(of: other.ids.text(device)).number
      if device < other.counted.count && other.counted[device] { count(number) }
      return number
    }
  }

  /// Notes that the device counts in the report.
  mutating func count(_ number: Int) {
    if counted.count <= number { counted += repeatElement(false, count: number + 1 - counted.count) }
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
  mutating func number(of name: UnsafeBufferPointer<UInt8>) -> Int32 {
    let (number, isNew) = texts.number(of: name)
    if isNew { names.append(String(decoding: name, as: UTF8.self)) }
    return Int32(number)
  }

  /// The name's number, if it has appeared.
  func existingNumber(of name: String) -> Int32? {
    texts.existingNumber(of: ArraySlice(name.utf8)).map(Int32.init)
  }
}
