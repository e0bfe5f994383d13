/// A number of a fixture written by a reference library: a double, or "inf", "-inf" and "nan" as strings,
/// where JSON has none.
struct FixtureNumber: Decodable {
  let value: Double

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let value = try? container.decode(Double.self) {
      self.value = value
    } else {
      let text = try container.decode(String.self)
      value = ["inf": .infinity, "-inf": -.infinity][text] ?? .nan
    }
  }
}
