// SPDX-License-Identifier: Apache-2.0

/// A semantic version (semver.org 2.0.0), read strictly as both Python's
/// `semver` (LaunchDarkly) and Rust's `semver` crate (Unleash) read one.
/// LaunchDarkly pads a short version and ignores build metadata; Unleash
/// orders by build metadata too, as the crate does.
struct SemanticVersion {
  let numbers: [String]
  let prerelease: [String]?
  let build: [String]?

  /// LaunchDarkly's reading: strict, else with ".0" added up to twice before
  /// the suffix ("2" and "2.1" are "2.0.0" and "2.1.0").
  init?(lenient text: String) {
    if let version = Self(strict: text) {
      self = version
      return
    }
    var padded = text
    for _ in 0..<2 {
      let prefix = padded.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
      padded = prefix + ".0" + padded.dropFirst(prefix.count)
      if let version = Self(strict: padded) {
        self = version
        return
      }
    }
    return nil
  }

  init?(strict text: String) {
    var core = Substring(text), build: Substring? = nil
    if let plus = core.firstIndex(of: "+") {
      build = core[core.index(after: plus)...]
      core = core[..<plus]
    }
    var prereleaseText: Substring? = nil
    if let dash = core.firstIndex(of: "-") {
      prereleaseText = core[core.index(after: dash)...]
      core = core[..<dash]
    }
    let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
    guard numbers.count == 3, numbers.allSatisfy(Self.isNumber) else { return nil }
    var buildIdentifiers: [String]? = nil
    if let build {
      let identifiers = build.split(separator: ".", omittingEmptySubsequences: false)
      guard identifiers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(Self.isIdentifierCharacter) }) else { return nil }
      buildIdentifiers = identifiers.map(String.init)
    }
    var prerelease: [String]? = nil
    if let prereleaseText {
      let identifiers = prereleaseText.split(separator: ".", omittingEmptySubsequences: false)
      guard
        identifiers.allSatisfy({ identifier in
          !identifier.isEmpty && identifier.allSatisfy(Self.isIdentifierCharacter)
            && (Self.isNumber(identifier) || identifier.contains { !$0.isASCII || !$0.isNumber })
        })
      else { return nil }
      prerelease = identifiers.map(String.init)
    }
    self.numbers = numbers.map { String($0) }
    self.prerelease = prerelease
    self.build = buildIdentifiers
  }

  /// Digits only, and no leading zero unless the number is 0.
  private static func isNumber(_ text: Substring) -> Bool {
    !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } && (text == "0" || text.first != "0")
  }

  private static func isIdentifierCharacter(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || character == "-")
  }

  /// Compares two numbers written in decimal digits, of any length.
  private static func compareDigits(_ a: String, _ b: String) -> Int {
    let a = a.drop { $0 == "0" }, b = b.drop { $0 == "0" }
    if a.count != b.count { return a.count < b.count ? -1 : 1 }
    return a == b ? 0 : (a < b ? -1 : 1)
  }

  /// Negative, zero or positive as `self` is below, equal to or above
  /// `other` by semver's precedence; with `includingBuild`, equal versions
  /// are then ordered by their build metadata (no metadata first).
  func compare(_ other: SemanticVersion, includingBuild: Bool = false) -> Int {
    for (a, b) in zip(numbers, other.numbers) {
      let order = Self.compareDigits(a, b)
      if order != 0 { return order }
    }
    let order: Int =
      switch (prerelease, other.prerelease) {
      case (nil, nil): 0
      case (nil, _): 1
      case (_, nil): -1
      case (let a?, let b?): Self.compareIdentifiers(a, b)
      }
    guard order == 0, includingBuild else { return order }
    switch (build, other.build) {
    case (nil, nil): return 0
    case (nil, _): return -1
    case (_, nil): return 1
    case (let a?, let b?): return Self.compareIdentifiers(a, b)
    }
  }

  /// Dot-separated identifiers: numbers by value and before words, words by their scalars, a shorter list first.
  private static func compareIdentifiers(_ a: [String], _ b: [String]) -> Int {
    for (x, y) in zip(a, b) {
      let xNumeric = x.allSatisfy { $0.isASCII && $0.isNumber }, yNumeric = y.allSatisfy { $0.isASCII && $0.isNumber }
      switch (xNumeric, yNumeric) {
      case (true, true):
        let order = Self.compareDigits(x, y)
        if order != 0 { return order }
      case (true, false): return -1
      case (false, true): return 1
      case (false, false):
        if x != y { return Array(x.unicodeScalars.map(\.value)).lexicographicallyPrecedes(y.unicodeScalars.map(\.value)) ? -1 : 1 }
      }
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
  }
}
