import Foundation
import Testing

@testable import AnalyticsTable

/// Timestamps become calendar days in a time zone. Expected days are from
/// Python's datetime and zoneinfo (days since 1970-01-01), an independent
/// reference for the calendar and the zone rules.
@Suite struct EventTimeTests {
  private let berlin = TimeZone(identifier: "Europe/Berlin")!

  /// A day number read from a field's bytes skips the string; it must read
  /// every field as the string does, the ones it leaves to the string too.
  @Test func aFieldsBytesGiveTheDayItsTextGives() {
    let fields = [
      "0", "7", "007", "365", "99999", "200000", "999999999999999999", "9223372036854775807", "9223372036854775808",
      "12345678901234567890", "", "-1", "+3", " 4", "4 ", "1e3", "3.0", "٣", "2026-11-24",
    ]
    for format in EventTime.Format.allCases {
      let time = EventTime(format: format)
      for field in fields {
        let bytes = Array(field.utf8)
        #expect(bytes.withUnsafeBufferPointer { time.day(of: $0) } == time.day(of: field), "\(format) '\(field)'")
      }
    }
  }

  @Test func isoDatesAndTimesBecomeTheirDays() {
    let utc = EventTime(format: .iso8601)
    #expect(utc.day(of: "2026-11-24") == 20781)
    #expect(utc.day(of: "2024-02-29") == 19782)
    #expect(utc.day(of: "1969-12-31") == -1)
    #expect(utc.day(of: "2000-03-01") == 11017)
    #expect(utc.day(of: "2026-11-24T09:30:00Z") == 20781)
    #expect(utc.day(of: "2026-11-24T09:30:00.250Z") == 20781)
    #expect(utc.day(of: "2026-11-24 09:30") == 20781)
    // 01:00 at +05:00 is 20:00 the day before in UTC.
    #expect(utc.day(of: "2026-11-24T01:00:00+05:00") == 20780)
    #expect(utc.day(of: "2026-11-24T01:00:00+0500") == 20780)
  }

  @Test func theTimeZoneDecidesTheCalendarDay() {
    let local = EventTime(format: .iso8601, timeZone: berlin)
    // 23:30 UTC is 00:30 the next day in Berlin in winter, 22:30 UTC in summer too.
    #expect(local.day(of: "2026-11-24T23:30:00Z") == 20782)
    #expect(local.day(of: "2026-07-01T22:30:00Z") == 20636)
    // Without an offset a time is already the zone's own.
    #expect(local.day(of: "2026-11-24T23:30:00") == 20781)
    #expect(EventTime(format: .unix, timeZone: berlin).day(of: "1795512600") == 20781)
    #expect(EventTime(format: .unix).day(of: "1795512600.5") == 20781)
    #expect(EventTime(format: .unixMilliseconds).day(of: "1795512600000") == 20781)
  }

  @Test func textThatIsNoTimeIsRefused() {
    let iso = EventTime(format: .iso8601)
    for text in ["", "2026-13-01", "2026-02-30", "2025-02-29", "2026-11-24T25:00", "2026-11-24T10:00Zx", "24/11/2026", "2026-11-24T10"] {
      #expect(iso.day(of: text) == nil, "\(text)")
    }
    #expect(EventTime(format: .unix).day(of: "soon") == nil)
    #expect(EventTime(format: .unix).day(of: "1e300") == nil)
    #expect(EventTime.parseDate("2026-11-24") == 20781)
    #expect(EventTime.parseDate("2026-11-24T00:00") == nil)
  }

  @Test func anEventsTableWithTimestampsCountsDaysFromTheFirstEvent() throws {
    let events = """
      id_for_vendor,experiment,variant,reason,day
      d1,Theme,A,displayed,2026-11-24T23:30:00Z
      d2,Theme,B,displayed,2026-11-24T22:30:00Z
      d3,Theme,A,displayed,2026-11-26T08:00:00+01:00

      """
    var options = EventsAnalysis.Options()
    options.time = EventTime(format: .iso8601, timeZone: berlin)
    let document = try EventsAnalysis(events: temporaryFile("e.csv", events), outcomes: nil, name: "t", options: options).document
    // In Berlin: d2 on the 24th (day 0), d1 on the 25th (day 1), d3 on the 26th (day 2).
    #expect(document.days == 3)
    #expect(document.experiments[0].dailyNewExposures == [[0, 1, 1], [1, 0, 0]])
    options.time.start = EventTime.parseDate("2026-11-20")
    let fromStart = try EventsAnalysis(events: temporaryFile("e.csv", events), outcomes: nil, name: "t", options: options).document
    #expect(fromStart.days == 7)
    #expect(fromStart.experiments[0].dailyNewExposures[1] == [0, 0, 0, 0, 1, 0, 0])
    options.time.start = EventTime.parseDate("2026-11-25")
    #expect(throws: AnalyticsTableError.self) {
      try EventsAnalysis(events: temporaryFile("e.csv", events), outcomes: nil, name: "t", options: options)
    }
  }

  @Test func timestampsRefusedAsDayNumbersSayHowToReadThem() throws {
    let path = try temporaryFile("e.csv", "id_for_vendor,experiment,variant,reason,day\nd1,Theme,A,displayed,2026-11-24T09:30:00Z\n")
    #expect(throws: AnalyticsTableError.malformedRow(
      path: path, line: 2,
      reason: "day '2026-11-24T09:30:00Z' is not a whole number of days from 0 to 3659 (ten years); for timestamps pass --time iso8601")) {
      try EventsAnalysis(events: path, outcomes: nil, name: "t", options: .init())
    }
    let years = try temporaryFile("e.csv", "id_for_vendor,experiment,variant,reason,day\nd1,Theme,A,displayed,1990-01-01\nd2,Theme,B,displayed,2026-01-01\n")
    var options = EventsAnalysis.Options()
    options.time = EventTime(format: .iso8601)
    #expect(throws: AnalyticsTableError.spanTooLong(path: years, days: 13150, limit: 3660)) {
      try EventsAnalysis(events: years, outcomes: nil, name: "t", options: options)
    }
  }
}

/// The forms analytics exports and databases write times in. Instants are
/// from Python's datetime (`datetime.fromisoformat(...).timestamp()`), an
/// independent reading of the same text.
@Suite struct ExportTimeTests {
  private let iso = EventTime(format: .iso8601)

  @Test func databaseAndExportFormsGiveTheirInstants() throws {
    let cases: [(String, Int64)] = [
      // PostgreSQL: whole-hour offsets as ±HH.
      ("2026-11-24 09:30:28.000-05", 1_795_530_628_000_000_000),
      ("2026-11-24 09:30:28+0530", 1_795_492_828_000_000_000),
      ("2026-11-24T09:30:28+05:30", 1_795_492_828_000_000_000),
      // BigQuery and Statsig: " UTC" after the time.
      ("2026-11-24 09:30:28.000000 UTC", 1_795_512_628_000_000_000),
      ("2026-10-20 00:26:20.805 UTC", 1_792_455_980_805_000_000),
      // Amplitude: UTC without a marker, to microseconds.
      ("2026-10-20 01:04:28.402774", 1_792_458_268_402_774_000),
      // Fractions to nanoseconds; further digits are dropped.
      ("2026-11-24T09:30:28.123456789Z", 1_795_512_628_123_456_789),
      ("2026-11-24T09:30:28.1234567891Z", 1_795_512_628_123_456_789),
      ("1969-12-31T23:59:59.5Z", -500_000_000),
    ]
    for (text, nanoseconds) in cases {
      #expect(iso.instant(of: text)?.nanoseconds == nanoseconds, "\(text)")
    }
    // An offset moves the calendar day: 09:30 at -05 is 14:30 UTC, the same day; 01:00 at +05:30 the day before.
    #expect(iso.instant(of: "2026-11-24 09:30:28.000-05")?.day == 20781)
    #expect(iso.instant(of: "2026-11-24 01:00:00+05:30")?.day == 20780)
    for text in ["2026-11-24 09:30:28 UTCX", "2026-11-24 09:30:28-5", "2026-11-24 09:30:28+05:3", "2026-11-24 09:30:28.Z", "2026-11-24 09:30:28 utc"] {
      #expect(iso.instant(of: text) == nil, "\(text)")
    }
    // Nanoseconds since 1970 hold years 1678 to 2262: beyond, a time is refused, not a trap (found by the fuzzer).
    for text in ["9999-12-31T23:59:59Z", "0001-01-01 00:00:00", "2263-01-01T00:00:00Z", "1677-01-01T00:00:00Z"] {
      #expect(iso.instant(of: text) == nil, "\(text)")
    }
    #expect(iso.instant(of: "2261-12-31T23:59:59Z") != nil)
    #expect(EventTime(format: .day).instant(of: "99999")?.nanoseconds == Int64(99_999) * 86_400_000_000_000)
    #expect(EventTime(format: .day).instant(of: "200000") == nil)
    #expect(iso.instant(of: "1679-01-01T00:00:00Z") != nil)
  }

  @Test func epochCountsInEachUnitGiveTheSameInstant() {
    let second: Int64 = 1_792_458_268
    #expect(EventTime(format: .unix).instant(of: "1792458268")?.nanoseconds == second * 1_000_000_000)
    #expect(EventTime(format: .unix).instant(of: "1792458268.25")?.nanoseconds == second * 1_000_000_000 + 250_000_000)
    #expect(EventTime(format: .unixMilliseconds).instant(of: "1792458268402")?.nanoseconds == second * 1_000_000_000 + 402_000_000)
    // Firebase writes microseconds as a string of digits; read exactly, not through a double.
    #expect(EventTime(format: .unixMicroseconds).instant(of: "1792458268402774")?.nanoseconds == 1_792_458_268_402_774_000)
    #expect(EventTime(format: .unixMicroseconds).instant(of: "1792458268402774")?.day == 20746)
    #expect(EventTime(format: .unixMicroseconds).instant(of: "-1")?.day == -1)
    #expect(EventTime(format: .unixMicroseconds).instant(of: "99999999999999999999") == nil)
  }

  @Test func aRefusalNamesTheFormatThatReadsTheField() {
    #expect(EventTime(format: .iso8601).formats(reading: "1792458268402774") == [.unixMicroseconds])
    #expect(EventTime(format: .iso8601).formats(reading: "1792458268402") == [.unixMilliseconds])
    #expect(EventTime(format: .unix).formats(reading: "2026-10-20 01:04:28") == [.iso8601])
    #expect(EventTime(format: .iso8601).formats(reading: "soon").isEmpty)
  }
}
