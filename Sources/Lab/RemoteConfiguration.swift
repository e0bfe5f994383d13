// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A value as a remote service delivers it. Services such as Taplytics type
/// their variables; Lab takes strings and numbers, so a boolean or a JSON
/// value where the app expects one of those is an incorrect value.
public enum RemoteValue: Hashable, Sendable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case json(String)
}

/// The remote service's configuration, as data: its experiments and the
/// variables that describe them to Lab.
///
/// Lab recognises an experiment only through the variable `__Keys_<name>`, a
/// JSON array of the experiment's keys; `__Override_<name>`, a JSON array of
/// keys, lists the keys whose values reach devices even after stabilization.
public struct RemoteConfiguration: Hashable, Sendable {
  public var experiments: [RemoteExperiment]
  /// The service's variables by name, `__Keys_…` and `__Override_…` among them.
  public var variables: [String: RemoteValue]

  public init(experiments: [RemoteExperiment], variables: [String: RemoteValue] = [:]) {
    self.experiments = experiments
    self.variables = variables
  }

  /// The configuration with `experiment` added and its keys declared as Lab expects.
  public func adding(_ experiment: RemoteExperiment, keys: [String]) -> RemoteConfiguration {
    var configuration = self
    configuration.experiments.removeAll { $0.name == experiment.name }
    configuration.experiments.append(experiment)
    configuration.variables[Self.keysVariable(experiment.name)] = .json(Self.jsonArray(keys))
    return configuration
  }

  public func experiment(named name: String) -> RemoteExperiment? {
    experiments.first { $0.name == name }
  }

  /// The keys `__Keys_<experiment>` declares.
  ///
  /// - Throws: `RemoteDeclarationError` when the variable is missing or is not a
  ///   JSON array of strings: the experiment is then not recognised.
  public func declaredKeys(of experiment: String) throws(RemoteDeclarationError) -> [String] {
    let name = Self.keysVariable(experiment)
    guard let value = variables[name] else { throw .missing(variable: name) }
    guard case .json(let text) = value, let keys = Self.stringArray(text), !keys.isEmpty else {
      throw .malformed(variable: name, value: value)
    }
    return keys
  }

  /// The keys `__Override_<experiment>` lists; none when it is missing or malformed.
  public func overriddenKeys(of experiment: String) -> [String] {
    guard case .json(let text)? = variables[Self.overrideVariable(experiment)] else { return [] }
    return Self.stringArray(text) ?? []
  }

  public static func keysVariable(_ experiment: String) -> String { "__Keys_\(experiment)" }
  public static func overrideVariable(_ experiment: String) -> String { "__Override_\(experiment)" }

  /// `["a","b"]` for `a`, `b`: the JSON a dashboard holds.
  public static func jsonArray(_ strings: [String]) -> String {
    let data = try? JSONSerialization.data(withJSONObject: strings, options: [.sortedKeys])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "[]"
  }

  private static func stringArray(_ text: String) -> [String]? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return nil }
    return object as? [String]
  }
}

/// Why the remote source does not recognise an experiment.
public enum RemoteDeclarationError: Error, Hashable, Sendable, CustomStringConvertible {
  case missing(variable: String)
  case malformed(variable: String, value: RemoteValue)

  public var description: String {
    switch self {
    case .missing(let variable):
      return "\(variable) is missing: add it as a JSON array of the experiment's keys"
    case .malformed(let variable, let value):
      return "\(variable) is \(value), not a JSON array of key names"
    }
  }
}
