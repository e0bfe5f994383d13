/// A word a POSIX shell reads back unchanged, for the lines a cluster run
/// hands to a shell: its job scripts and the commands its errors suggest.
public enum ShellWord {
  /// `text` bare when it holds only characters no shell treats specially,
  /// else single-quoted (a quote inside as `'\''`; a line break stays literal).
  public static func quoted(_ text: String) -> String {
    let plain = text.unicodeScalars.allSatisfy { scalar in
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        || "._/-+,:=@%".unicodeScalars.contains(scalar)
    }
    return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
