import Digests

/// A chart's file name made from names that come from data: a scenario's, an
/// experiment's, a metric's (an export's `flag_key`, a table's column, a
/// `--metric` flag), which must never choose where a file goes or break the
/// report's link to it. ASCII letters, digits, '-', '_' and '.' (not
/// leading) are kept; any other character becomes '_', and the name then
/// takes the first 12 hexadecimal digits of its SHA-256, so that two names
/// that differ only there stay apart. A name longer than 120 bytes is cut
/// and takes the digest too.
public enum ChartFileName {
  /// The parts joined by '-', made safe, then `suffix` (e.g. "-lift.svg").
  public static func make(_ parts: [String], suffix: String) -> String {
    let name = parts.joined(separator: "-")
    var safe = ""
    for scalar in name.unicodeScalars {
      let kept = scalar.isASCII
        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
          || (scalar == "." && !safe.isEmpty))
      safe.unicodeScalars.append(kept ? scalar : "_")
    }
    if safe != name || safe.utf8.count > 120 {
      safe = String(safe.prefix(100)) + "-" + String(SHA256.hex(of: Array(name.utf8)).prefix(12))
    }
    return safe + suffix
  }
}
