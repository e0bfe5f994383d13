// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONDocument

/// Reading a vendor's JSON file as strictly as its SDK reads it: every type
/// the SDK checks is checked here, and a problem names its JSON path.
struct VendorJSON {
  /// The format's name, for messages ("LaunchDarkly flag data", ...).
  let format: String

  /// Parses `data`, or says where it is not JSON.
  func parse(_ data: Data) throws(BucketingError) -> JSONValue {
    do {
      return try JSONValue.parse(data)
    } catch {
      throw .unreadable(format: format, reason: error.description)
    }
  }

  func error(_ path: String, _ message: String) -> BucketingError {
    .unreadable(format: format, reason: "\(path): \(message)")
  }

  /// The object at `path`.
  func object(_ value: JSONValue, _ path: String) throws(BucketingError) -> [String: JSONValue] {
    guard case .object(let members) = value else { throw error(path, "expected an object, found \(value.typeName)") }
    return members
  }

  /// A member that must be present (and not null) with the given reading.
  func required<T>(
    _ members: [String: JSONValue], _ name: String, _ path: String,
    _ read: (JSONValue, String) throws(BucketingError) -> T
  ) throws(BucketingError) -> T {
    guard let value = members[name], value != .null else { throw error(path, "'\(name)' is required") }
    return try read(value, "\(path).\(name)")
  }

  /// A member that may be absent or null.
  func optional<T>(
    _ members: [String: JSONValue], _ name: String, _ path: String,
    _ read: (JSONValue, String) throws(BucketingError) -> T
  ) throws(BucketingError) -> T? {
    guard let value = members[name], value != .null else { return nil }
    return try read(value, "\(path).\(name)")
  }

  func string(_ value: JSONValue, _ path: String) throws(BucketingError) -> String {
    guard case .string(let text) = value else { throw error(path, "expected a string, found \(value.typeName)") }
    return text
  }

  func bool(_ value: JSONValue, _ path: String) throws(BucketingError) -> Bool {
    guard case .bool(let flag) = value else { throw error(path, "expected true or false, found \(value.typeName)") }
    return flag
  }

  /// An integer written without a fraction or exponent, as Python's `int` reads it.
  func integer(_ value: JSONValue, _ path: String) throws(BucketingError) -> Int64 {
    guard case .integer(let number) = value else {
      throw error(path, "expected an integer, found \(value.typeName == "a number" ? "a number with a fraction or exponent" : value.typeName)")
    }
    return number
  }

  func number(_ value: JSONValue, _ path: String) throws(BucketingError) -> Double {
    guard let number = value.double else { throw error(path, "expected a number, found \(value.typeName)") }
    return number
  }

  func array(_ value: JSONValue, _ path: String) throws(BucketingError) -> [JSONValue] {
    guard case .array(let elements) = value else { throw error(path, "expected an array, found \(value.typeName)") }
    return elements
  }

  /// An array of strings, as a set compared scalar for scalar (ids and keys the SDK matches exactly).
  func exactSet(_ value: JSONValue, _ path: String) throws(BucketingError) -> Set<ExactText> {
    Set(try list(value, path, string).map(ExactText.init))
  }

  /// An array whose elements are each read by `read`, at `path[i]`.
  func list<T>(_ value: JSONValue, _ path: String, _ read: (JSONValue, String) throws(BucketingError) -> T) throws(BucketingError) -> [T] {
    var result: [T] = []
    for (index, element) in try array(value, path).enumerated() {
      result.append(try read(element, "\(path)[\(index)]"))
    }
    return result
  }
}

extension JSONValue {
  /// Equality as Python compares JSON values: an integer equals the same
  /// number written with a fraction, a boolean never equals a number, and
  /// arrays and objects compare element by element.
  func pythonEquals(_ other: JSONValue) -> Bool {
    switch (self, other) {
    case (.integer, .integer), (.integer, .number), (.number, .integer), (.number, .number):
      if case .integer(let a) = self, case .integer(let b) = other { return a == b }
      return double == other.double
    case (.string(let a), .string(let b)):
      return a.unicodeScalars.elementsEqual(b.unicodeScalars)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.pythonEquals($1) }
    case (.object(let a), .object(let b)):
      return a.count == b.count && a.allSatisfy { key, value in b[key].map(value.pythonEquals) ?? false }
    default:
      return self == other
    }
  }

  /// The value as Python's `str` writes it (`True`, `5`, `2.5`, `None`,
  /// `['a', 1]`): the text SDKs written in Python compare and hash.
  public var pythonString: String {
    switch self {
    case .null: "None"
    case .bool(let flag): flag ? "True" : "False"
    case .integer(let number): String(number)
    case .number(let number): "\(number)"
    case .string(let text): text
    case .array(let elements): "[" + elements.map(\.pythonRepresentation).joined(separator: ", ") + "]"
    case .object(let members): "{" + members.keys.sorted().map { "'\($0)': \(members[$0]!.pythonRepresentation)" }.joined(separator: ", ") + "}"
    }
  }

  /// Python's `repr`: a string in quotes, anything else as `str` writes it.
  private var pythonRepresentation: String {
    if case .string(let text) = self { return "'\(text)'" }
    return pythonString
  }
}

/// Text compared by its Unicode scalars, as the SDKs compare strings (Python,
/// Rust, Go, JavaScript), not by Swift's canonical equivalence, under which
/// "é" and "e" + U+0301 are equal: an id listed in one form never matches
/// the other in the vendor's SDK.
public struct ExactText: Hashable, Sendable {
  public let scalars: [UInt32]

  public init(_ text: String) {
    scalars = text.unicodeScalars.map(\.value)
  }
}

extension String {
  /// Whether the two strings are the same UTF-8 bytes (Swift's `==` also
  /// equates canonically equivalent forms): a fast exact test for caches.
  func hasSameBytes(as other: String) -> Bool {
    var left = self, right = other
    return left.withUTF8 { a in
      right.withUTF8 { b in a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0) }
    }
  }
}

extension Set where Element == ExactText {
  /// Whether `text` is listed, scalar for scalar.
  func contains(exactly text: String) -> Bool {
    contains(ExactText(text))
  }
}
