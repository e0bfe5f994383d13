/// Text escaped for XML, which the SVG charts, the XHTML report and the JUnit
/// file all are. Names come from data (an export's experiment or variant, a
/// plan's name), so a character XML 1.0 cannot hold at all becomes U+FFFD
/// instead of making the file unreadable.
public enum XMLText {
  /// `text` as element content: the characters XML reserves escaped, tab and line ends as written.
  public static func escape(_ text: String) -> String {
    escape(text, attribute: false)
  }

  /// `text` as an attribute's value, where a parser would fold tabs and line
  /// ends into spaces unless they are written as references, and `'` may close it.
  public static func escapeAttribute(_ text: String) -> String {
    escape(text, attribute: true)
  }

  private static func escape(_ text: String, attribute: Bool) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'" where attribute: result += "&apos;"
      case "\t" where attribute: result += "&#9;"
      case "\n" where attribute: result += "&#10;"
      case "\r" where attribute: result += "&#13;"
      case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
          result += "\u{FFFD}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
