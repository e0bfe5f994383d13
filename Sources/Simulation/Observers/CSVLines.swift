/// CSV lines built straight into UTF-8 bytes, RFC 4180 style: a field that
/// holds a comma, a quote or a line break is quoted, its quotes doubled, and
/// every line ends with a line feed.
///
/// The events table is written at millions of rows a second, so a line costs
/// no allocation beyond the buffer's growth: fields are copied byte by byte,
/// and an integer's text fits a small string, which lives on the stack.
/// `CSVLinesTests` holds the bytes to CSV.swift's writer on random fields.
public struct CSVLines: Sendable {
  public private(set) var bytes: [UInt8] = []
  private var lineHasField = false

  public init() {}

  /// Lines that start with a header of these column names.
  public init(header columns: [String]) {
    line(columns)
  }

  /// Appends a text field.
  public mutating func field(_ text: String) {
    separate()
    var text = text
    text.withUTF8 { utf8 in
      guard utf8.contains(where: Self.needsQuotes) else {
        bytes.append(contentsOf: utf8)
        return
      }
      bytes.append(UInt8(ascii: "\""))
      for byte in utf8 {
        bytes.append(byte)
        if byte == UInt8(ascii: "\"") { bytes.append(byte) }
      }
      bytes.append(UInt8(ascii: "\""))
    }
  }

  /// Appends an integer field in decimal.
  public mutating func field(_ value: Int) {
    separate()
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    // The digits from the last, then turned around: no string to allocate or copy.
    let first = bytes.count
    var magnitude = value.magnitude
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    bytes[first...].reverse()
  }

  /// Fields encoded once, to be appended many times: an events table repeats
  /// a few distinct runs of fields millions of times.
  public struct Fragment: Sendable {
    fileprivate let bytes: [UInt8]

    /// The fields as they would be appended one by one.
    public init(_ fields: [String]) {
      precondition(!fields.isEmpty, "a fragment holds at least one field")
      var lines = CSVLines()
      for field in fields { lines.field(field) }
      bytes = lines.bytes
    }
  }

  /// Appends a fragment's fields.
  public mutating func append(_ fragment: Fragment) {
    separate()
    bytes.append(contentsOf: fragment.bytes)
  }

  /// Ends the current line.
  public mutating func endLine() {
    bytes.append(UInt8(ascii: "\n"))
    lineHasField = false
  }

  /// Appends a whole line of text fields.
  public mutating func line(_ fields: [String]) {
    for field in fields { self.field(field) }
    endLine()
  }

  private mutating func separate() {
    if lineHasField { bytes.append(UInt8(ascii: ",")) }
    lineHasField = true
  }

  private static func needsQuotes(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
  }
}
