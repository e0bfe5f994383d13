/// Text escaped for XML, which both the SVG charts and the XHTML report are.
/// Names come from data (an export's experiment or variant), so a control
/// character XML 1.0 cannot hold at all becomes U+FFFD instead of making the
/// file unreadable; tab and line ends stay as written.
enum XMLText {
  static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
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
