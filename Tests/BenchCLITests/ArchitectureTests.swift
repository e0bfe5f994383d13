import Foundation
import Testing

/// docs/architecture.md's module table says what each module depends on;
/// Package.swift says it to the compiler. They must agree.
@Suite struct ArchitectureTests {
  /// Each target of the manifest (tests aside) with the targets and products
  /// it depends on, read from Package.swift's text.
  private func manifest() throws -> [String: Set<String>] {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    var targets: [String: Set<String>] = [:]
    for kind in [".target(", ".executableTarget(", ".systemLibrary("] {
      for piece in text.components(separatedBy: kind).dropFirst() {
        // The call's own text: up to its closing parenthesis, brackets and parentheses balanced.
        var depth = 1, call = ""
        for character in piece {
          if character == "(" || character == "[" { depth += 1 }
          if character == ")" || character == "]" { depth -= 1 }
          if depth == 0 { break }
          call.append(character)
        }
        let name = try #require(Self.quoted(after: "name: ", in: call).first)
        let dependencies = call.components(separatedBy: "dependencies:").dropFirst().first.map(Self.strings) ?? []
        // A product's package name is no dependency of its own.
        let packages = Set(call.components(separatedBy: "package: ").dropFirst().compactMap { Self.strings($0).first })
        targets[name] = Set(dependencies).subtracting(packages)
      }
    }
    return targets
  }

  private static func quoted(after marker: String, in text: String) -> [String] {
    text.components(separatedBy: marker).dropFirst().compactMap { strings($0).first }
  }

  /// The string literals of `text` before its first closing bracket.
  private static func strings(_ text: String) -> [String] {
    let list = text.prefix { $0 != "]" }
    return list.components(separatedBy: "\"").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
  }

  /// Each row of the table: the module and the names in backticks of its last column.
  private func documented() throws -> [String: Set<String>] {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    var modules: [String: Set<String>] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      let names = cells[cells.count - 1].components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
      modules[name] = Set(names)
    }
    return modules
  }

  @Test func theModuleTableIsTheManifest() throws {
    let targets = try manifest(), modules = try documented()
    #expect(targets.count >= 17)
    #expect(Set(modules.keys) == Set(targets.keys), "modules the page or the manifest lacks")
    for (name, dependencies) in targets {
      #expect(modules[name] == dependencies, "\(name): the page says \(modules[name] ?? []), Package.swift \(dependencies)")
    }
  }
}
