import Simulation
import Testing

@testable import AnalyticsTable

/// `ExposureLog.DeviceRecord` keeps a device's first variant in place and
/// the others in an array: on random sequences of displays it must keep the
/// same list as the plain rule, each variant once at its earliest time, in
/// order of time, ties in the order they came.
struct DeviceRecordTests {
  private typealias Shown = ExposureLog.Shown

  /// The rule as one array.
  private func plainRecord(_ displays: [Shown]) -> [Shown] {
    var variants: [Shown] = []
    for shown in displays {
      if let index = variants.firstIndex(where: { $0.variant == shown.variant }) {
        guard shown.time < variants[index].time else { continue }
        variants.remove(at: index)
      }
      variants.insert(shown, at: variants.firstIndex { $0.time > shown.time } ?? variants.count)
    }
    return variants
  }

  @Test func keepsTheListThePlainRuleKeeps() {
    var draws = DeviceRandom(seed: 25, replication: 0, device: 0).stream(.display)
    var multiVariant = 0
    for _ in 0..<5_000 {
      let displays = (0..<(1 + Int(draws.next() % 8))).map { _ in
        let day = Int(draws.next() % 6)
        return Shown(
          variant: Int32(draws.next() % 3), selectedIn: Int32(draws.next() % 2), shownIn: Int32(draws.next() % 2),
          day: day, time: Int64(day) * 86_400_000_000_000 + Int64(draws.next() % 3) * 1_000_000_000)
      }
      var record = ExposureLog.DeviceRecord(displays[0])
      for shown in displays.dropFirst() { record.record(shown) }
      let kept = (0..<record.count).map(record.shown)
      let expected = plainRecord(displays)
      #expect(kept.map(\.variant) == expected.map(\.variant))
      #expect(kept.map(\.day) == expected.map(\.day))
      #expect(kept.map(\.selectedIn) == expected.map(\.selectedIn))
      #expect(kept.map(\.shownIn) == expected.map(\.shownIn))
      if record.count > 1 { multiVariant += 1 }
    }
    #expect(multiVariant > 1_000)
  }
}
