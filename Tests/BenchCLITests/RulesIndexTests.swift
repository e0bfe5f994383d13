import Foundation
import Platforms
import Testing

/// docs/rules/README.md names, for every rule of every framework, its page,
/// its code, its regression test and its scenario, all under one name: a page
/// `DeletedVariant.md`, a test `DeletedVariantTests` in a `Rules/` folder of
/// the tests, a scenario `deleted-variant.json`. These checks fail when the
/// index and the files part ways.
@Suite struct RulesIndexTests {
  private struct Row {
    let page: String
    let code: String
    let test: String
    let scenario: String
  }

  /// The rows of the index's tables: those whose page cell links a page.
  private func rows() throws -> [Row] {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/rules/README.md"), encoding: .utf8)
    return try text.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("](") }.map { line in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      try #require(cells.count == 5, "\(line): a row has rule, page, code, test and scenario")
      let page = try #require(cells[1].components(separatedBy: "](").last?.components(separatedBy: ".md)").first)
      func code(_ cell: String) -> String { cell.trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
      return Row(page: page, code: code(cells[2]), test: code(cells[3]), scenario: cells[4])
    }
  }

  /// `DeletedVariant` → `deleted-variant`; a run of capitals stays one word (`KOMARemoteValues` → `koma-remote-values`).
  private static func kebab(_ name: String) -> String {
    var words: [String] = [], word = ""
    let characters = Array(name)
    for (index, character) in characters.enumerated() {
      let next = index + 1 < characters.count ? characters[index + 1] : nil
      let startsWord = character.isUppercase && !word.isEmpty
        && (!(word.last?.isUppercase ?? false) || (next?.isLowercase ?? false))
      if startsWord {
        words.append(word)
        word = ""
      }
      word.append(character)
    }
    words.append(word)
    return words.map { $0.lowercased() }.joined(separator: "-")
  }

  @Test func namesBecomeScenarioNames() {
    #expect(Self.kebab("DeletedVariant") == "deleted-variant")
    #expect(Self.kebab("KOMARemoteValues") == "koma-remote-values")
    #expect(Self.kebab("DevToDevHandshake") == "dev-to-dev-handshake")
    #expect(Self.kebab("GrowthBookWeightChange") == "growth-book-weight-change")
  }

  /// The scenario a page's name gives, where the project spells a vendor as one word.
  private static func scenarioName(ofPage page: String) -> String {
    kebab(page).replacingOccurrences(of: "dev-to-dev", with: "devtodev")
      .replacingOccurrences(of: "growth-book", with: "growthbook").replacingOccurrences(of: "launch-darkly", with: "launchdarkly")
  }

  @Test func everyRowNamesAPageCodeTestAndScenarioThatExist() throws {
    let rows = try rows()
    #expect(rows.count >= 18)
    let root = repositoryRoot
    let tests = FileManager.default.subpaths(atPath: root.appendingPathComponent("Tests").path) ?? []
    for row in rows {
      #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("docs/rules/\(row.page).md").path),
        "\(row.page).md")
      let code = try? String(contentsOf: root.appendingPathComponent(row.code), encoding: .utf8)
      #expect(row.code.hasPrefix("Sources/") && code != nil, "\(row.page): its code \(row.code)")
      #expect(row.test == row.page + "Tests", "\(row.page): its test is \(row.test)")
      let testFile = tests.first { $0.hasSuffix("/Rules/\(row.test).swift") }
      let testSource = try testFile.map { try String(contentsOf: root.appendingPathComponent("Tests/\($0)"), encoding: .utf8) }
      #expect(testSource?.contains("struct \(row.test)") == true, "\(row.page): no Tests/*/Rules/\(row.test).swift")
      if row.scenario.hasPrefix("none: ") {
        #expect(row.scenario.count > 40, "\(row.page): a rule without a scenario says why")
      } else {
        let name = Self.scenarioName(ofPage: row.page)
        #expect(row.scenario == "`\(name).json`", "\(row.page): its scenario is \(row.scenario), not \(name).json")
        let scenario = try? String(contentsOf: root.appendingPathComponent("scenarios/\(name).json"), encoding: .utf8)
        #expect(scenario?.contains("\"name\": \"\(name)\"") == true, "\(row.page): scenarios/\(name).json")
      }
    }
  }

  /// Every page and every rule test is in the index.
  /// The page `bench inspect` names for a platform's reassignment is one of the index's.
  @Test func everyPlatformNamesAnIndexedChangeRule() throws {
    let pages = Set(try rows().map(\.page))
    for traits in PlatformRegistry.standard.traits {
      let page = try #require(traits.changeRulePage, "\(traits.name) names no change rule")
      #expect(pages.contains(page), "\(traits.name): \(page)")
    }
  }

  @Test func everyPageAndRuleTestIsIndexed() throws {
    let pages = Set(try rows().map(\.page))
    let root = repositoryRoot
    let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs/rules").path)
    for file in files where file.hasSuffix(".md") && file != "README.md" {
      #expect(pages.contains(String(file.dropLast(3))), "docs/rules/\(file) is not in the index")
    }
    let tests = FileManager.default.subpaths(atPath: root.appendingPathComponent("Tests").path) ?? []
    for file in tests where file.contains("/Rules/") && file.hasSuffix("Tests.swift") {
      let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
      #expect(pages.contains(String(name.dropLast(5))), "\(file) tests no rule of the index")
    }
  }
}
