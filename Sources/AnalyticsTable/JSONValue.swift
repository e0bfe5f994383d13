/// One JSON value of an export's row (RFC 8259), kept as exported: a number
/// keeps its text, so that an id written as a number reads as the digits the
/// tool wrote, and an object keeps its members' order. Not the scenario
/// reader's `JSONParser`: that one refuses repeated members and tracks each
/// value's path for its messages, which a scenario needs and a row of an
/// export read millions of times does not.
enum JSONValue: Equatable {
  case null
  case bool(Bool)
  /// The number's text, as written.
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  /// The member named `key` of an object (the first, should the object repeat it).
  subscript(member key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The value as a field's text: a string's characters, a number's digits,
  /// `true`/`false`; nil for null, arrays and objects, which are no field.
  var text: String? {
    switch self {
    case .string(let text), .number(let text): text
    case .bool(let value): value ? "true" : "false"
    case .null, .array, .object: nil
    }
  }

  /// Whether a field holds no value: null, or empty text (as a CSV export writes a missing cell).
  var isMissingValue: Bool {
    switch self {
    case .null: true
    case .string(let text): text.isEmpty
    default: false
    }
  }

  /// The JSON type's name, for messages.
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// Text that is not JSON, and where.
struct JSONSyntaxError: Error {
  /// The byte offset from the start of the text, from 1.
  let column: Int
  let reason: String
}

extension JSONValue {
  /// Parses one JSON text (a JSON Lines row, or a CSV field holding JSON);
  /// whitespace may surround it, nothing may follow it.
  static func parse(_ bytes: ArraySlice<UInt8>) throws(JSONSyntaxError) -> JSONValue {
    var parser = Parser(bytes: bytes)
    parser.skipWhitespace()
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == bytes.endIndex else { throw parser.error("unexpected text after the value") }
    return value
  }

  /// A recursive-descent reader over the bytes.
  private struct Parser {
    let bytes: ArraySlice<UInt8>
    var index: Int

    /// Nesting deeper than this is no export's row; refusing it keeps the stack bounded.
    static let depthLimit = 512

    init(bytes: ArraySlice<UInt8>) {
      self.bytes = bytes
      index = bytes.startIndex
    }

    func error(_ reason: String) -> JSONSyntaxError {
      JSONSyntaxError(column: index - bytes.startIndex + 1, reason: reason)
    }

    mutating func skipWhitespace() {
      while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      guard depth < Self.depthLimit else { throw error("nests deeper than \(Self.depthLimit) levels") }
      guard index < bytes.endIndex else { throw error("a value is missing") }
      switch bytes[index] {
      case UInt8(ascii: "{"): return try object(depth: depth)
      case UInt8(ascii: "["): return try array(depth: depth)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): try literal("true"); return .bool(true)
      case UInt8(ascii: "f"): try literal("false"); return .bool(false)
      case UInt8(ascii: "n"): try literal("null"); return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
      default: throw error("'\(Unicode.Scalar(bytes[index]))' cannot start a value")
      }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
      let count = word.utf8CodeUnitCount
      guard bytes.endIndex - index >= count,
        word.withUTF8Buffer({ bytes[index..<index + count].elementsEqual($0) })
      else { throw error("expected \(word)") }
      index += count
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      index += 1
      var members: [(key: String, value: JSONValue)] = []
      skipWhitespace()
      if index < bytes.endIndex, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipWhitespace()
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member's name in quotes") }
        let key = try string()
        skipWhitespace()
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after \"\(key)\"") }
        index += 1
        skipWhitespace()
        members.append((key, try value(depth: depth + 1)))
        skipWhitespace()
        guard index < bytes.endIndex else { throw error("the object is not closed") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
        } else if bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(members)
        } else {
          throw error("expected ',' or '}' in an object")
        }
      }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      index += 1
      var values: [JSONValue] = []
      skipWhitespace()
      if index < bytes.endIndex, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(values)
      }
      while true {
        skipWhitespace()
        values.append(try value(depth: depth + 1))
        skipWhitespace()
        guard index < bytes.endIndex else { throw error("the array is not closed") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
        } else if bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(values)
        } else {
          throw error("expected ',' or ']' in an array")
        }
      }
    }

    /// A number's text as RFC 8259 writes it: no leading zeros, no '+', no bare '.'.
    mutating func number() throws(JSONSyntaxError) -> String {
      let start = index
      func digits() -> Int {
        let first = index
        while index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - first
      }
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.endIndex else { throw error("a number has no digits") }
      if bytes[index] == UInt8(ascii: "0") {
        index += 1
      } else if digits() == 0 {
        throw error("a number has no digits")
      }
      if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard digits() > 0 else { throw error("a number's fraction has no digits") }
      }
      if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
        index += 1
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { throw error("a number's exponent has no digits") }
      }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A string's characters, escapes resolved; the text must be valid UTF-8.
    mutating func string() throws(JSONSyntaxError) -> String {
      index += 1
      let start = index
      // The usual string has no escape: its bytes are the text.
      while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
        index += 1
      }
      if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") {
        guard let text = String(validating: bytes[start..<index], as: UTF8.self) else { throw error("a string is not valid UTF-8") }
        index += 1
        return text
      }
      var scalars = Array(bytes[start..<index])
      while true {
        guard index < bytes.endIndex else { throw error("a string is not closed") }
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") { break }
        guard byte >= 0x20 else { throw error("a string holds a control character: escape it") }
        guard byte == UInt8(ascii: "\\") else {
          scalars.append(byte)
          index += 1
          continue
        }
        index += 1
        guard index < bytes.endIndex else { throw error("a string ends in '\\'") }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800..<0xDC00).contains(code) {
            // A high surrogate must be followed by its low one.
            guard bytes.endIndex - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
              throw error("a \\u escape holds half a surrogate pair")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("a \\u escape holds half a surrogate pair") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00..<0xE000).contains(code) {
            throw error("a \\u escape holds half a surrogate pair")
          }
          scalars.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
        default:
          throw error("'\\\(Unicode.Scalar(escaped))' is no JSON escape")
        }
      }
      index += 1
      guard let text = String(validating: scalars, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
      return text
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
      guard bytes.endIndex - index >= 4 else { throw error("a \\u escape needs four hex digits") }
      var code: UInt32 = 0
      for byte in bytes[index..<index + 4] {
        guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { throw error("a \\u escape needs four hex digits") }
        code = code * 16 + UInt32(digit)
      }
      index += 4
      return code
    }
  }
}
