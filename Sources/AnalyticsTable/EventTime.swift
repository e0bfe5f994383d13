import Foundation

/// How the events table writes when an event happened, and how that becomes
/// the day the analysis counts by. Real tables carry timestamps, not the
/// simulator's day numbers: a timestamp becomes its calendar day in the
/// chosen time zone, and day 0 is the start date or the first event's day.
public struct EventTime: Sendable {
  /// The format of the time field.
  public enum Format: String, CaseIterable, Sendable {
    /// Whole days from the start, 0 first: what `bench run --events` writes.
    case day
    /// ISO 8601 and the forms databases export: `2026-11-24`, `2026-11-24T09:30:00Z`,
    /// `2026-11-24 09:30:28.000-05` (PostgreSQL), `2026-11-24 09:30:28.000000 UTC` (BigQuery),
    /// offsets as `±HH`, `±HHMM` or `±HH:MM`, fractions to nanoseconds; a time without an
    /// offset is in the chosen time zone.
    case iso8601
    /// Unix epoch seconds, whole or fractional.
    case unix
    /// Unix epoch milliseconds.
    case unixMilliseconds = "unix-ms"
    /// Unix epoch microseconds: Firebase's and GA4's `event_timestamp`.
    case unixMicroseconds = "unix-us"
  }

  /// When an event happened: the instant, to order an outcome against an
  /// exposure, and the calendar day the analysis counts it on.
  public struct Instant: Hashable, Sendable {
    /// Nanoseconds since 1970-01-01T00:00:00Z; for day numbers, the day's start.
    public var nanoseconds: Int64
    /// The calendar day in the time zone, as days since 1970-01-01 (for day numbers, the number).
    public var day: Int

    public init(nanoseconds: Int64, day: Int) {
      self.nanoseconds = nanoseconds
      self.day = day
    }

    /// A day number's instant: the day's start.
    init(day: Int) {
      self.init(nanoseconds: Int64(day) * EventTime.nanosecondsPerDay, day: day)
    }
  }

  public var format: Format
  /// The zone whose calendar days count; UTC unless chosen.
  public var timeZone: TimeZone
  /// Day 0, as days since 1970-01-01 in `timeZone`; nil for the first event's day.
  public var start: Int?

  public init(format: Format = .day, timeZone: TimeZone = TimeZone(identifier: "UTC")!, start: Int? = nil) {
    self.format = format
    self.timeZone = timeZone
    self.start = start
  }

  /// The calendar day of `field` in the time zone, as days since
  /// 1970-01-01; for `.day` the number itself. Nil when it is not a time of
  /// the format.
  public func day(of field: String) -> Int? {
    instant(of: field)?.day
  }

  /// `day(of:)` of a field's bytes: a day number of plain digits, what
  /// `bench run --events` writes, is read without making a string.
  func day(of field: UnsafeBufferPointer<UInt8>) -> Int? {
    if format == .day, (1...5).contains(field.count), field.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      return field.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
    return day(of: String(decoding: field, as: UTF8.self))
  }

  /// The instant and calendar day of `field`; nil when it is not a time of the format.
  public func instant(of field: String) -> Instant? {
    switch format {
    case .day:
      // A run lasts at most ten years; the bound (about 270 years) keeps the day's nanoseconds within Int64.
      guard let day = Int(field), abs(day) < 100_000 else { return nil }
      return Instant(day: day)
    case .unix:
      return epoch(field, unitsPerSecond: 1)
    case .unixMilliseconds:
      return epoch(field, unitsPerSecond: 1_000)
    case .unixMicroseconds:
      return epoch(field, unitsPerSecond: 1_000_000)
    case .iso8601:
      // Nanoseconds since 1970 fit in 64 bits from 1678 to 2262; a time beyond is no event's.
      guard let (seconds, nanoseconds, hasOffset) = Self.parseISO8601(field), abs(seconds) < Self.secondsLimit else {
        return nil
      }
      guard hasOffset else {
        // A wall-clock time of the zone: its day is the clock's, its instant the zone's offset away.
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
        return Instant(
          nanoseconds: Int64(seconds - offset) * 1_000_000_000 + nanoseconds, day: Self.floorDivide(seconds, 86_400))
      }
      return Instant(nanoseconds: Int64(seconds) * 1_000_000_000 + nanoseconds, day: localDay(epochSeconds: seconds))
    }
  }

  /// The formats, other than this one, that would read `field` as a time
  /// of this century: the fix a refusal offers. (Any integer is some epoch
  /// count; only one that lands between 2000 and 2100 suggests its unit.)
  public func formats(reading field: String) -> [Format] {
    Format.allCases.filter { candidate in
      guard candidate != format, candidate != .day,
        let instant = EventTime(format: candidate, timeZone: timeZone).instant(of: field)
      else { return false }
      return candidate == .iso8601 || (10_957..<47_482).contains(instant.day)
    }
  }

  fileprivate static let nanosecondsPerDay: Int64 = 86_400 * 1_000_000_000
  /// Seconds whose nanoseconds, a day's offset either way, stay within Int64.
  private static let secondsLimit = Int(Int64.max / 1_000_000_000) - 86_400

  /// An epoch count in `unitsPerSecond`: decimal text exactly (to the
  /// nanosecond), other number forms (`1.7e9`) as doubles.
  private func epoch(_ field: String, unitsPerSecond: Int64) -> Instant? {
    let unitNanoseconds = 1_000_000_000 / unitsPerSecond
    // Beyond about ±2262 nanoseconds leave Int64; no analytics export is there.
    let limit = Int64.max / 1_000_000_000 * unitsPerSecond
    let nanoseconds: Int64
    let parts = field.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    if let whole = Int64(parts[0]), parts.count == 1 || parts[1].allSatisfy(\.isASCII) && parts[1].allSatisfy(\.isNumber) {
      guard abs(whole) < limit else { return nil }
      var fraction: Int64 = 0
      if parts.count == 2 {
        guard !parts[1].isEmpty else { return nil }
        // The fraction's digits as nanoseconds of the unit, further digits dropped.
        var scale = unitNanoseconds
        for digit in parts[1] where scale > 1 {
          scale /= 10
          fraction += Int64(digit.wholeNumberValue!) * scale
        }
      }
      nanoseconds = whole * unitNanoseconds + (parts[0].hasPrefix("-") ? -fraction : fraction)
    } else if EventsAnalysis.isDecimal(field), let value = Double(field), value.isFinite, abs(value) < Double(limit) {
      nanoseconds = Int64((value * Double(unitNanoseconds)).rounded(.down))
    } else {
      return nil
    }
    let seconds = Int(Self.floorDivide(Int(nanoseconds), 1_000_000_000))
    return Instant(nanoseconds: nanoseconds, day: localDay(epochSeconds: seconds))
  }

  /// The day, in the time zone, of an instant.
  private func localDay(epochSeconds: Int) -> Int {
    let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(epochSeconds)))
    return Self.floorDivide(epochSeconds + offset, 86_400)
  }

  /// A date in `YYYY-MM-DD` form, as days since 1970-01-01; nil otherwise.
  public static func parseDate(_ text: String) -> Int? {
    guard let (seconds, _, hasOffset) = parseISO8601(text), !hasOffset, text.count == 10 else { return nil }
    return floorDivide(seconds, 86_400)
  }

  /// Seconds since 1970-01-01T00:00:00 in the text's own clock, the
  /// nanoseconds of its fraction, and whether the text gave an offset (then
  /// the seconds are UTC).
  private static func parseISO8601(_ text: String) -> (seconds: Int, nanoseconds: Int64, hasOffset: Bool)? {
    let bytes = Array(text.utf8)
    var index = 0
    func number(_ digits: Int) -> Int? {
      guard index + digits <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<index + digits] {
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      index += digits
      return value
    }
    func expect(_ character: Character) -> Bool {
      guard index < bytes.count, bytes[index] == character.asciiValue! else { return false }
      index += 1
      return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
      (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
    else { return nil }
    var seconds = days(year: year, month: month, day: day) * 86_400
    var nanoseconds: Int64 = 0
    guard index < bytes.count else { return (seconds, 0, false) }
    guard expect("T") || expect(" "), let hour = number(2), expect(":"), let minute = number(2), hour < 24, minute < 60 else {
      return nil
    }
    seconds += hour * 3_600 + minute * 60
    if expect(":") {
      guard let second = number(2), second < 61 else { return nil }
      seconds += min(second, 59)
      if expect(".") || expect(",") {
        // Digits beyond nanoseconds are read and dropped.
        var digits = 0
        while index < bytes.count, (48...57).contains(bytes[index]) {
          if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(bytes[index] - 48) }
          digits += 1
          index += 1
        }
        guard digits > 0 else { return nil }
        for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
      }
    }
    guard index < bytes.count else { return (seconds, nanoseconds, false) }
    // BigQuery writes " UTC" after the time.
    if bytes[index...].elementsEqual(" UTC".utf8) { return (seconds, nanoseconds, true) }
    if expect("Z") { return index == bytes.count ? (seconds, nanoseconds, true) : nil }
    let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
    guard expect("+") || expect("-"), let offsetHours = number(2), offsetHours < 24 else { return nil }
    // PostgreSQL writes whole-hour offsets as ±HH alone.
    var offsetMinutes = 0
    if index < bytes.count {
      _ = expect(":")
      guard let minutes = number(2), minutes < 60 else { return nil }
      offsetMinutes = minutes
    }
    guard index == bytes.count else { return nil }
    return (seconds - sign * (offsetHours * 3_600 + offsetMinutes * 60), nanoseconds, true)
  }
  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
  private static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = floorDivide(y, 400)
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
  }
}
