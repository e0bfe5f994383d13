// SPDX-License-Identifier: Apache-2.0

/// Lab's naming conventions: keys in `lowerCamelCase`, variant and experiment
/// names in `UpperCamelCase`.
///
/// The doc states them "by convention" and its own examples break them
/// (a variant called `baseline`, another called `SubscribeOnLaunchImage_b`), so
/// a convention is checked under a policy rather than built into `Experiment`.
public enum NamingPolicy: String, Hashable, Sendable, CaseIterable {
  /// A name that breaks a convention is an error.
  case strict
  /// A name that breaks a convention is reported as a warning.
  case lenient
}

/// One name that breaks a naming convention.
public struct NamingViolation: Hashable, Sendable, CustomStringConvertible {
  public enum Subject: String, Hashable, Sendable {
    case experiment, variant, key
  }

  public let experiment: String
  public let subject: Subject
  public let name: String

  /// The convention the subject should follow.
  public var convention: NamingConvention {
    subject == .key ? .lowerCamelCase : .upperCamelCase
  }

  public var description: String {
    let owner = subject == .experiment ? "" : " of experiment \(experiment)"
    return "\(subject.rawValue) '\(name)'\(owner) should be \(convention.rawValue), e.g. '\(convention.suggestion(for: name))'"
  }
}

/// A way of writing a name made of several words.
public enum NamingConvention: String, Hashable, Sendable {
  case lowerCamelCase
  case upperCamelCase = "UpperCamelCase"

  /// Whether `name` is written in this convention: a letter of the right case,
  /// then letters and digits only.
  public func accepts(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
      return false
    }
    let firstIsRight = self == .lowerCamelCase ? first.properties.isLowercase : first.properties.isUppercase
    return firstIsRight && name.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }

  /// `name` rewritten in this convention: separators dropped, the letter after
  /// each separator capitalised, the first letter cased as the convention says.
  public func suggestion(for name: String) -> String {
    let words = name.split { !($0.isLetter || $0.isNumber) }
    let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    guard let first = joined.first else { return name }
    let head = self == .lowerCamelCase ? first.lowercased() : first.uppercased()
    return head + joined.dropFirst()
  }
}

extension Experiment {
  /// Every name of the experiment that breaks a naming convention, in the
  /// order: experiment, keys, variants.
  public var namingViolations: [NamingViolation] {
    var violations: [NamingViolation] = []
    if !NamingConvention.upperCamelCase.accepts(name) {
      violations.append(NamingViolation(experiment: name, subject: .experiment, name: name))
    }
    for key in keys where !NamingConvention.lowerCamelCase.accepts(key) {
      violations.append(NamingViolation(experiment: name, subject: .key, name: key))
    }
    for variant in variants where !NamingConvention.upperCamelCase.accepts(variant.name) {
      violations.append(NamingViolation(experiment: name, subject: .variant, name: variant.name))
    }
    return violations
  }
}

extension Experiment {
  /// Applies the naming conventions under `policy`.
  ///
  /// - Returns: the violations, as warnings, when the policy is lenient.
  /// - Throws: `NamingError` with every violation when the policy is strict.
  public func checkNaming(_ policy: NamingPolicy) throws(NamingError) -> [NamingViolation] {
    let violations = namingViolations
    if policy == .strict, !violations.isEmpty {
      throw NamingError(violations: violations)
    }
    return violations
  }
}

/// The names that break a convention under a strict naming policy.
public struct NamingError: Error, Hashable, Sendable, CustomStringConvertible {
  public let violations: [NamingViolation]

  public init(violations: [NamingViolation]) {
    self.violations = violations
  }

  public var description: String {
    violations.map(\.description).joined(separator: "; ")
  }
}
