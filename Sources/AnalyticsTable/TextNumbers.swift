import Foundation

/// Texts numbered in the order they first appear, found by their bytes.
///
/// The analysis numbers every row's device id and names straight from the
/// row's buffer: no `String` is made for a text seen before, and the hash is
/// a multiply-and-shift over eight bytes at a time rather than the standard
/// library's seeded hash. The texts come from the user's own tables, so the
/// table does not defend against inputs crafted to collide; such a table
/// would be slow to read, not misread.
struct TextNumbers {
  /// Every text's bytes, one after another; text n ends at `ends[n]`.
  private var bytes: [UInt8] = []
  private var ends: [Int] = []
  /// Open addressing with linear probing: 0 for an empty slot, else the
  /// text's hash's top 32 bits and its number + 1, so that a probe compares
  /// hashes before it reads a text. There are 2^`slotBits` slots, at least
  /// twice the texts.
  private var slots: [UInt64]
  private var slotBits: Int
  /// The text the last lookup found: rows of one device repeat its id and a
  /// few names, and comparing with the last, or with the text numbered
  /// after it (a second table listing devices in the first one's order),
  /// costs less than hashing and reading a slot of a table larger than the cache.
  private var last = -1
  /// The text found before `last`: a column whose rows alternate between
  /// two texts (activations and displays) finds both without hashing.
  private var before = -1

  init() {
    slotBits = 6
    slots = Array(repeating: 0, count: 1 << slotBits)
  }

  /// How many texts have been numbered.
  var count: Int { ends.count }

  /// The text's number, and whether this call gave it.
  mutating func number(of text: UnsafeBufferPointer<UInt8>) -> (number: Int, isNew: Bool) {
    if last >= 0 {
      if isText(last, equalTo: text) { return (last, false) }
      if last + 1 < ends.count && isText(last + 1, equalTo: text) {
        found(last + 1)
        return (last, false)
      }
      if before >= 0 && isText(before, equalTo: text) {
        found(before)
        return (last, false)
      }
    }
    let hash = Self.hash(text)
    var slot = Self.slot(of: hash, bits: slotBits)
    while slots[slot] != 0 {
      if slots[slot] >> 32 == hash >> 32 {
        let number = Int(slots[slot] & 0xFFFF_FFFF) - 1
        if isText(number, equalTo: text) {
          found(number)
          return (number, false)
        }
      }
      slot = (slot + 1) & (slots.count - 1)
    }
    let number = ends.count
    precondition(number < Int(UInt32.max), "a table holds fewer than 2³² distinct texts")
    bytes.append(contentsOf: text)
    ends.append(bytes.count)
    slots[slot] = Self.entry(hash: hash, number: number)
    found(number)
    if ends.count * 2 > slots.count { grow() }
    return (number, true)
  }

  private mutating func found(_ number: Int) {
    if number != last {
      before = last
      last = number
    }
  }

  /// `number(of:)` of bytes held in an array.
  mutating func number(of text: ArraySlice<UInt8>) -> (number: Int, isNew: Bool) {
    text.withUnsafeBufferPointer { number(of: $0) }
  }

  /// The text's number, if it has one.
  func existingNumber(of text: ArraySlice<UInt8>) -> Int? {
    text.withUnsafeBufferPointer { text in
      let hash = Self.hash(text)
      var slot = Self.slot(of: hash, bits: slotBits)
      while slots[slot] != 0 {
        let number = Int(slots[slot] & 0xFFFF_FFFF) - 1
        if slots[slot] >> 32 == hash >> 32 && isText(number, equalTo: text) { return number }
        slot = (slot + 1) & (slots.count - 1)
      }
      return nil
    }
  }

  /// The bytes of text `number`.
  func text(_ number: Int) -> ArraySlice<UInt8> {
    bytes[(number == 0 ? 0 : ends[number - 1])..<ends[number]]
  }

  /// Whether text `number` is `text`, compared in place.
  @inline(__always)
  private func isText(_ number: Int, equalTo text: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = number == 0 ? 0 : ends[number - 1]
    guard ends[number] - start == text.count else { return false }
    guard !text.isEmpty else { return true }
    return bytes.withUnsafeBytes { stored in
      // Eight bytes at a time, inline: ids and names are short, and a call to memcmp costs more than comparing them.
      let stored = UnsafeRawBufferPointer(rebasing: stored[start..<start + text.count]), text = UnsafeRawBufferPointer(text)
      func word(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      }
      func half(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      }
      guard text.count >= 8 else {
        // Four to seven bytes as two overlapping halves; fewer one by one.
        guard text.count >= 4 else { return (0..<text.count).allSatisfy { stored[$0] == text[$0] } }
        return half(stored, at: 0) == half(text, at: 0) && half(stored, at: text.count - 4) == half(text, at: text.count - 4)
      }
      var index = 0
      while index + 8 < text.count {
        guard word(stored, at: index) == word(text, at: index) else { return false }
        index += 8
      }
      // The last eight bytes, overlapping the words before.
      return word(stored, at: text.count - 8) == word(text, at: text.count - 8)
    }
  }

  /// Twice the slots, every text hashed and placed again: hashing the texts
  /// at each doubling costs less than keeping eight bytes a text for it.
  private mutating func grow() {
    slotBits += 1
    var grown = Array(repeating: UInt64(0), count: 1 << slotBits)
    bytes.withUnsafeBufferPointer { stored in
      for number in ends.indices {
        let hash = Self.hash(UnsafeBufferPointer(rebasing: stored[(number == 0 ? 0 : ends[number - 1])..<ends[number]]))
        var slot = Self.slot(of: hash, bits: slotBits)
        while grown[slot] != 0 { slot = (slot + 1) & (grown.count - 1) }
        grown[slot] = Self.entry(hash: hash, number: number)
      }
    }
    slots = grown
  }

  private static func entry(hash: UInt64, number: Int) -> UInt64 {
    hash & 0xFFFF_FFFF_0000_0000 | UInt64(number + 1)
  }

  /// The top `bits` of the hash times the golden ratio (Fibonacci hashing),
  /// so that texts differing only in their last bytes spread over the slots.
  private static func slot(of hash: UInt64, bits: Int) -> Int {
    Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
  }

  static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let raw = UnsafeRawBufferPointer(text)
    var hash = 0x243F_6A88_85A3_08D3 ^ UInt64(raw.count)
    var index = 0
    while index + 8 <= raw.count {
      hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
      hash ^= hash >> 32
      index += 8
    }
    var tail: UInt64 = 0, shift: UInt64 = 0
    while index < raw.count {
      tail |= UInt64(raw[index]) << shift
      shift += 8
      index += 1
    }
    hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
    return hash ^ hash >> 29
  }
}
