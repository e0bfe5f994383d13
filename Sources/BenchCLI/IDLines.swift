/// Ids one per line, as editors and spreadsheets save them: lines end in
/// "\n" or "\r\n" (which Swift's `Character` holds as one, so a split on "\n"
/// alone would find a Windows file to be one line), and a UTF-8 byte order
/// mark may open the text, which must not become part of the first id.
enum IDLines {
  /// The lines of `text`, their ends removed, the byte order mark dropped.
  static func split(_ text: String) -> [String] {
    droppingByteOrderMark(text).unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var scalars = String.UnicodeScalarView(line)
      if scalars.last == "\r" { scalars.removeLast() }
      return String(scalars)
    }
  }

  /// The first line (from 1) holding a control character other than a tab,
  /// and the character as U+XXXX: a NUL or an escape in an id is a binary
  /// file or a paste gone wrong, never an id a service was sent.
  static func firstControlCharacter(in lines: [String]) -> (line: Int, character: String)? {
    for (index, line) in lines.enumerated() {
      if let scalar = line.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
        return (index + 1, String(format: "U+%04X", scalar.value))
      }
    }
    return nil
  }

  /// `text` without a leading U+FEFF.
  static func droppingByteOrderMark(_ text: String) -> String {
    text.unicodeScalars.first == "\u{FEFF}" ? String(String.UnicodeScalarView(text.unicodeScalars.dropFirst())) : text
  }
}
