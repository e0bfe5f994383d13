import Foundation

/// How the events table writes when an event happened, and how that becomes
/// the day the analysis counts by. Real tables carry timestamps, not the
/// simulator's day numbers: a timestamp becomes its calendar day in the
/// chosen time zone, and day 0 is the start date or the first event's day.
public struct EventTime: Sendable {
  /// The format of the `day` column.
  public enum Format: String, CaseIterable, Sendable {
    /// Whole days from the start, 0 first: what `bench run --events` writes.
    case day
    /// ISO 8601: `2026-11-24`, `2026-11-24T09:30:00Z`, `2026-11-24T09:30:00.250+01:00`; a time
    /// without an offset is in the chosen time zone.
    case iso8601
    /// Unix epoch seconds, whole or fractional.
    case unix
    /// Unix epoch milliseconds.
    case unixMilliseconds = "unix-ms"
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
    switch format {
    case .day:
      return Int(field)
    case .unix:
      return Double(field).flatMap { localDay(epochSeconds: $0) }
    case .unixMilliseconds:
      return Double(field).flatMap { localDay(epochSeconds: $0 / 1000) }
    case .iso8601:
      return Self.parseISO8601(field).flatMap { seconds, hasOffset in
        guard hasOffset else { return Self.floorDivide(seconds, 86_400) }
        return localDay(epochSeconds: Double(seconds))
      }
    }
  }

  /// `day(of:)` of a field's bytes: a day number of plain digits, what
  /// `bench run --events` writes, is read without making a string.
  func day(of field: ArraySlice<UInt8>) -> Int? {
    if format == .day, (1...18).contains(field.count), field.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      return field.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
    return day(of: String(decoding: field, as: UTF8.self))
  }

  /// The day, in the time zone, of an instant.
  private func localDay(epochSeconds: Double) -> Int? {
    guard epochSeconds.isFinite, abs(epochSeconds) < 1e13 else { return nil }
    let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: epochSeconds))
    return Self.floorDivide(Int(epochSeconds.rounded(.down)) + offset, 86_400)
  }

  /// A date in `YYYY-MM-DD` form, as days since 1970-01-01; nil otherwise.
  public static func parseDate(_ text: String) -> Int? {
    guard let (seconds, hasOffset) = parseISO8601(text), !hasOffset, text.count == 10 else { return nil }
    return floorDivide(seconds, 86_400)
  }

  /// Seconds since 1970-01-01T00:00:00 in the text's own clock, and whether
  /// the text gave an offset (then the seconds are UTC).
  private static func parseISO8601(_ text: String) -> (seconds: Int, hasOffset: Bool)? {
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
    guard index < bytes.count else { return (seconds, false) }
    guard expect("T") || expect(" "), let hour = number(2), expect(":"), let minute = number(2), hour < 24, minute < 60 else {
      return nil
    }
    seconds += hour * 3_600 + minute * 60
    if expect(":") {
      guard let second = number(2), second < 61 else { return nil }
      seconds += min(second, 59)
      if expect(".") || expect(",") {
        let start = index
        while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
        guard index > start else { return nil }
      }
    }
    guard index < bytes.count else { return (seconds, false) }
    if expect("Z") { return index == bytes.count ? (seconds, true) : nil }
    let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
    guard expect("+") || expect("-"), let offsetHours = number(2) else { return nil }
    _ = expect(":")
    guard let offsetMinutes = number(2), index == bytes.count, offsetHours < 24, offsetMinutes < 60 else { return nil }
    return (seconds - sign * (offsetHours * 3_600 + offsetMinutes * 60), true)
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
