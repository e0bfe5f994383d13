import Foundation
import Testing

/// One section of a fixture file (tests.json unless named): a list of cases as dictionaries.
struct ReferenceCases {
  private let root: [String: Any]

  init(file: String = "tests") throws {
    let url = try #require(Bundle.module.url(forResource: file, withExtension: "json", subdirectory: "Fixtures"))
    root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  func cases(_ section: String) throws -> [Case] {
    let list = try #require(root[section] as? [[String: Any]], "the fixture lacks \(section)")
    return list.map(Case.init)
  }

  func object(_ section: String) throws -> Case {
    Case(values: try #require(root[section] as? [String: Any]))
  }

  struct Case: CustomStringConvertible {
    let values: [String: Any]

    func int(_ key: String) -> Int { (values[key] as! NSNumber).intValue }
    func double(_ key: String) -> Double { (values[key] as! NSNumber).doubleValue }
    /// A number, or `nil` where the reference has none (JSON null).
    func optionalDouble(_ key: String) -> Double? { (values[key] as? NSNumber)?.doubleValue }
    func ints(_ key: String) -> [Int] { (values[key] as! [NSNumber]).map(\.intValue) }
    func doubles(_ key: String) -> [Double] { (values[key] as! [NSNumber]).map(\.doubleValue) }
    func doubleLists(_ key: String) -> [[Double]] { (values[key] as! [[NSNumber]]).map { $0.map(\.doubleValue) } }

    var description: String { "\(values)" }
  }
}

/// Agreement with an optional reference: both missing, or both present and
/// within `relative` (absolute 1e-300 below 1e-300, absolute `absolute` near 0).
func agrees(_ actual: Double?, _ expected: Double?, relative: Double = 1e-9, absolute: Double = 1e-12) -> Bool {
  switch (actual, expected) {
  case (nil, nil): return true
  case (let actual?, let expected?):
    if abs(expected) < 1e-300 { return abs(actual - expected) <= 1e-300 }
    return abs(actual - expected) <= max(relative * abs(expected), absolute)
  default: return false
  }
}
