/// Names as a person reads them: the same whatever their case and their
/// spaces, dashes and underscores. iOS and Android builds of one app send
/// `Subscription_Started` and `subscription_started`; a team names its
/// control `Control` or `control_group`.
enum NameFolding {
  /// `name` lowercased without spaces, dashes and underscores.
  static func folded(_ name: String) -> String {
    String(name.lowercased().unicodeScalars.filter { !" -_".unicodeScalars.contains($0) })
  }
}
