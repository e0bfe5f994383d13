/// Numbers as a plan's descriptions write them: whole numbers without a
/// fraction (`50`, not `50.0`), others as Swift prints them.
enum NumberText {
  static func plain(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
  }
}
