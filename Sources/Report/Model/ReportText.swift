/// A sentence or a table cell of a report: text whose spans say what is
/// emphasised and what is code, so that each format marks them its own way
/// and escapes the rest. A name read from data is a plain span: it never
/// turns into markup, whatever characters it holds.
///
/// Written with string interpolation: `"\(strong: "Ship \(variant)"): \(lift)"`.
public struct ReportText: Sendable, Hashable, ExpressibleByStringInterpolation {
  /// How a span reads.
  public enum Style: Sendable, Hashable {
    case plain
    /// What the reader must not miss: a decision, a broken promise.
    case strong
    /// A field, flag or key as the reader would type it.
    case code
  }

  public struct Span: Sendable, Hashable {
    public var text: String
    public var style: Style
  }

  /// The spans in reading order; adjacent spans of one style are merged.
  public private(set) var spans: [Span] = []

  public init() {}

  /// Plain text.
  public init(_ text: String) {
    append(text, style: .plain)
  }

  /// Text a person wrote for the report, such as a plan's description, in
  /// which `**` marks strong text and backticks mark code, as in Markdown.
  /// An unclosed mark holds to the end of the text.
  public init(authored text: String) {
    var style = Style.plain
    var rest = Substring(text)
    while let first = rest.first {
      if style != .code, rest.hasPrefix("**") {
        style = style == .strong ? .plain : .strong
        rest = rest.dropFirst(2)
      } else if first == "`", style != .strong {
        style = style == .code ? .plain : .code
        rest = rest.dropFirst()
      } else {
        append(String(first), style: style)
        rest = rest.dropFirst()
      }
    }
  }

  public init(stringLiteral value: String) {
    self.init(value)
  }

  public init(stringInterpolation: Interpolation) {
    self = stringInterpolation.text
  }

  /// Whether there is no text at all.
  public var isEmpty: Bool { spans.isEmpty }

  /// The text without its styles.
  public var plainText: String { spans.map(\.text).joined() }

  public mutating func append(_ text: String, style: Style) {
    guard !text.isEmpty else { return }
    if let last = spans.last, last.style == style {
      spans[spans.count - 1].text += text
    } else {
      spans.append(Span(text: text, style: style))
    }
  }

  public mutating func append(_ other: ReportText) {
    for span in other.spans { append(span.text, style: span.style) }
  }

  public static func + (lhs: ReportText, rhs: ReportText) -> ReportText {
    var text = lhs
    text.append(rhs)
    return text
  }

  public static func += (lhs: inout ReportText, rhs: ReportText) {
    lhs.append(rhs)
  }

  public struct Interpolation: StringInterpolationProtocol {
    var text = ReportText()

    public init(literalCapacity: Int, interpolationCount: Int) {}

    public mutating func appendLiteral(_ literal: String) {
      text.append(literal, style: .plain)
    }

    /// A value as plain text: a name, a count, a sentence.
    public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
      text.append(value.description, style: .plain)
    }

    /// Text already styled, kept as it is.
    public mutating func appendInterpolation(_ value: ReportText) {
      text.append(value)
    }

    public mutating func appendInterpolation(strong value: String) {
      text.append(value, style: .strong)
    }

    public mutating func appendInterpolation(code value: String) {
      text.append(value, style: .code)
    }
  }
}

extension Sequence where Element == ReportText {
  /// The texts one after another with `separator` between them, as `String`'s `joined` does.
  public func joined(separator: ReportText = ReportText()) -> ReportText {
    var result = ReportText()
    for (index, text) in enumerated() {
      if index > 0 { result.append(separator) }
      result.append(text)
    }
    return result
  }
}
