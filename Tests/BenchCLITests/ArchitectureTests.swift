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

  /// Each row of the table, in order: the module and the names in backticks of its last column.
  private func documented() throws -> [(name: String, dependencies: Set<String>)] {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    return text.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      let names = cells[cells.count - 1].components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
      return (name, Set(names))
    }
  }

  /// The page says a module knows only the ones before it: each row's
  /// dependencies stand above it (or outside the package, as ArgumentParser).
  @Test func eachModuleDependsOnlyOnTheOnesBeforeIt() throws {
    let rows = try documented()
    let names = Set(rows.map(\.name))
    var seen: Set<String> = []
    for row in rows {
      let inside = row.dependencies.intersection(names)
      #expect(inside.isSubset(of: seen), "\(row.name) depends on \(inside.subtracting(seen)), listed below it")
      seen.insert(row.name)
    }
  }

  @Test func theModuleTableIsTheManifest() throws {
    let targets = try manifest()
    let modules = Dictionary(uniqueKeysWithValues: try documented().map { ($0.name, $0.dependencies) })
    #expect(targets.count >= 17)
    #expect(Set(modules.keys) == Set(targets.keys), "modules the page or the manifest lacks")
    for (name, dependencies) in targets {
      #expect(modules[name] == dependencies, "\(name): the page says \(modules[name] ?? []), Package.swift \(dependencies)")
    }
  }

  /// Every part of the device loop that folds counts into the tally is in
  /// the page's table of parts, with the one file that declares, resets and
  /// folds them; and every file the table names holds its part.
  @Test func everyCountingPartOfTheLoopIsInThePartsTable() throws {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    let section = try #require(text.components(separatedBy: "## The device loop's parts").dropFirst().first)
      .components(separatedBy: "\n## ")[0]
    let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| part") && !$0.hasPrefix("|---") }
    var listed: [String: String] = [:]
    for row in rows {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      listed[cells[0]] = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
    }
    let folder = repositoryRoot.appendingPathComponent("Sources/Simulation")
    let files = try #require(FileManager.default.subpaths(atPath: folder.path)).filter { $0.hasSuffix(".swift") }
    var folding: Set<String> = []
    for file in files {
      let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      // A part's fold, not the contract's own declaration.
      guard source.contains("func fold(into tally: inout RunTally"), !source.contains("protocol DevicePart") else { continue }
      let part = (file as NSString).lastPathComponent.replacingOccurrences(of: ".swift", with: "")
      folding.insert(part)
      #expect(listed[part] == file, "\(part) folds counts in \(file); the parts table says \(listed[part] ?? "nothing")")
      // One contract: the loop resets and folds every counting part the same way.
      #expect(source.contains("struct \(part): DevicePart"), "\(part) folds counts but does not conform to DevicePart")
    }
    #expect(folding.count >= 10)
    for (part, file) in listed {
      let source = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      #expect(source?.contains("struct \(part)") == true, "the parts table names \(file) for \(part)")
    }
  }

  /// A file holds one concern: none in Sources grows past 600 lines.
  @Test func noSourceFileIsLongerThan600Lines() throws {
    let folder = repositoryRoot.appendingPathComponent("Sources")
    let files = try #require(FileManager.default.subpaths(atPath: folder.path)).filter { $0.hasSuffix(".swift") }
    #expect(files.count > 100)
    for file in files {
      let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      let lines = source.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      #expect(lines <= 600, "Sources/\(file) has \(lines) lines: split it by concern")
    }
  }
}
