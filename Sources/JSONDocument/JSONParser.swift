// SPDX-License-Identifier: Apache-2.0

/// A strict JSON reader (RFC 8259) for the files the bench reads: scenarios,
/// vendors' configurations and `--attributes`.
///
/// Foundation's decoder accepts a repeated field (the last value wins), turns
/// `1e999` into an error without a path and reports no line: each of those
/// lets a typo change a result or hides where it is. This reader refuses
/// duplicate fields, trailing commas and numbers beyond a double with the JSON
/// path, and every syntax error with its line and column.
public struct JSONParser {
  /// Deeper nesting than any scenario or vendor file needs; it bounds the recursion, so that
  /// a file of ten thousand `[` cannot exhaust the stack.
  public static let maximumDepth = 64

  private let bytes: [UInt8]
  private var offset = 0
  private var path: [String] = []

  private init(_ bytes: [UInt8]) {
    self.bytes = bytes
    // A UTF-8 byte-order mark is not part of the document (RFC 8259 §8.1).
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
  }

  /// Parses a whole document: one value, and nothing after it but whitespace.
  public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
    var parser = JSONParser(bytes)
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.offset == bytes.count else {
      throw parser.syntaxError("unexpected text after the document's end")
    }
    return value
  }

  // MARK: - Values

  private mutating func value(depth: Int) throws(JSONError) -> JSONValue {
    skipWhitespace()
    guard let byte = peek() else { throw syntaxError("the document ends where a value was expected") }
    switch byte {
    case UInt8(ascii: "{"): return try object(depth: depth + 1)
    case UInt8(ascii: "["): return try array(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw syntaxError("\(describe(byte)) cannot start a value")
    }
  }

  private mutating func object(depth: Int) throws(JSONError) -> JSONValue {
    try checkDepth(depth)
    offset += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      offset += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else {
        if peek() == UInt8(ascii: "}") { throw syntaxError("a trailing comma before '}': remove it") }
        throw syntaxError("a field name in double quotes was expected")
      }
      let name = try string()
      path.append(name)
      guard members[name] == nil else {
        throw JSONError(path: pathText, message: "appears twice in one object: keep one")
      }
      skipWhitespace()
      guard peek() == UInt8(ascii: ":") else { throw syntaxError("':' was expected after the field name") }
      offset += 1
      members[name] = try value(depth: depth)
      path.removeLast()
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): offset += 1
      case UInt8(ascii: "}"): offset += 1; return .object(members)
      default: throw syntaxError("',' or '}' was expected: check for a missing comma or brace")
      }
    }
  }

  private mutating func array(depth: Int) throws(JSONError) -> JSONValue {
    try checkDepth(depth)
    offset += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      offset += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      if peek() == UInt8(ascii: "]") { throw syntaxError("a trailing comma before ']': remove it") }
      path.append("[\(elements.count)]")
      elements.append(try value(depth: depth))
      path.removeLast()
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): offset += 1
      case UInt8(ascii: "]"): offset += 1; return .array(elements)
      default: throw syntaxError("',' or ']' was expected: check for a missing comma or bracket")
      }
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONError) {
    let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard bytes.count - offset >= expected.count, bytes[offset..<offset + expected.count].elementsEqual(expected) else {
      throw syntaxError("not a JSON value: text must be in double quotes")
    }
    offset += expected.count
  }

  // MARK: - Numbers

  private mutating func number() throws(JSONError) -> JSONValue {
    let start = offset
    if peek() == UInt8(ascii: "-") { offset += 1 }
    guard let first = peek(), isDigit(first) else { throw syntaxError("a digit was expected after '-'") }
    offset += 1
    if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
      throw syntaxError("a number cannot start with 0 followed by digits")
    }
    skipDigits()
    var isInteger = true
    if peek() == UInt8(ascii: ".") {
      isInteger = false
      offset += 1
      guard let digit = peek(), isDigit(digit) else { throw syntaxError("a digit was expected after '.'") }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      isInteger = false
      offset += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
      guard let digit = peek(), isDigit(digit) else { throw syntaxError("a digit was expected in the exponent") }
      skipDigits()
    }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    if isInteger, let integer = Int64(text) { return .integer(integer) }
    guard let number = Double(text), number.isFinite else {
      throw JSONError(
        path: pathText, message: "\(Self.shortened(text)) is out of range: a number must be below 1.8e308 in magnitude")
    }
    return .number(number)
  }

  private mutating func skipDigits() {
    while let byte = peek(), isDigit(byte) { offset += 1 }
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  // MARK: - Strings

  private mutating func string() throws(JSONError) -> String {
    let start = offset
    offset += 1
    var utf8: [UInt8] = []
    while true {
      guard let byte = peek() else { throw syntaxError("a string is not closed: add the closing '\"'") }
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        guard let text = String(validating: utf8, as: UTF8.self) else {
          offset = start
          throw syntaxError("a string is not valid UTF-8: save the file as UTF-8")
        }
        return text
      case UInt8(ascii: "\\"):
        offset += 1
        try escape(into: &utf8)
      case 0..<0x20:
        throw syntaxError("a control character inside a string: write it as an escape such as \\n")
      default:
        utf8.append(byte)
        offset += 1
      }
    }
  }

  private mutating func escape(into utf8: inout [UInt8]) throws(JSONError) {
    guard let byte = peek() else { throw syntaxError("a string is not closed: add the closing '\"'") }
    offset += 1
    let simple: [UInt8: UInt8] = [
      UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
      UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]
    if let character = simple[byte] {
      utf8.append(character)
      return
    }
    guard byte == UInt8(ascii: "u") else { throw syntaxError("\\ before \(describe(byte)) is not a JSON escape") }
    var scalar = try hexQuad()
    if (0xD800..<0xDC00).contains(scalar) {
      guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
        throw syntaxError("a \\u escape names half of a surrogate pair")
      }
      offset += 2
      let low = try hexQuad()
      guard (0xDC00..<0xE000).contains(low) else { throw syntaxError("a \\u escape names half of a surrogate pair") }
      scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
    }
    guard let unicode = Unicode.Scalar(scalar) else { throw syntaxError("a \\u escape names half of a surrogate pair") }
    utf8.append(contentsOf: String(Character(unicode)).utf8)
  }

  private mutating func hexQuad() throws(JSONError) -> UInt32 {
    guard bytes.count - offset >= 4,
      let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
    else { throw syntaxError("\\u must be followed by four hexadecimal digits") }
    offset += 4
    return value
  }

  // MARK: - Position and errors

  private func peek() -> UInt8? {
    offset < bytes.count ? bytes[offset] : nil
  }

  private mutating func skipWhitespace() {
    while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
  }

  private func checkDepth(_ depth: Int) throws(JSONError) {
    guard depth <= Self.maximumDepth else {
      throw syntaxError("nested deeper than \(Self.maximumDepth) levels, which no scenario or vendor file needs")
    }
  }

  /// The path of the value being read, spelt as the scenario reader spells it.
  private var pathText: String {
    var text = ""
    for component in path {
      if component.hasPrefix("[") {
        text += component
      } else {
        text += text.isEmpty ? Self.shortened(component) : ".\(Self.shortened(component))"
      }
    }
    return text.isEmpty ? "$" : text
  }

  /// A syntax error at the current byte, with its line and column (both from 1,
  /// the column counted in characters).
  private func syntaxError(_ reason: String) -> JSONError {
    let end = min(offset, bytes.count)
    let lineStart = bytes[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    let line = bytes[..<lineStart].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    let column = bytes[lineStart..<end].reduce(1) { ($1 & 0xC0) == 0x80 ? $0 : $0 + 1 }
    return JSONError(path: "$", message: "is not valid JSON at line \(line), column \(column): \(reason)")
  }

  private func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "the byte 0x\(String(byte, radix: 16, uppercase: true))"
  }

  /// Text from the file, cut to a length a one-line message can carry.
  public static func shortened(_ text: String) -> String {
    text.count <= 64 ? text : "\(text.prefix(60))…"
  }
}
