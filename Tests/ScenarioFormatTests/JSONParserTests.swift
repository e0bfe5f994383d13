import Foundation
import Platforms
import ScenarioFormat
import Testing

/// The strict reading of scenario files: what Foundation's decoder let
/// through silently, and syntax errors with their line and column.
@Suite struct JSONParserTests {
  @Test func aFieldGivenTwiceIsRefusedWithItsPath() {
    expectScenarioError(
      minimalScenario(experiments: defaultExperiment.replacingOccurrences(of: #""weight": 2,"#, with: #""weight": 2, "weight": 3,"#)),
      "versions[0].experiments[0].variants[0].weight: appears twice in one object: keep one")
    expectScenarioError(
      minimalScenario().replacingOccurrences(of: #""seed": 7,"#, with: #""seed": 7, "seed": 8,"#),
      "seed: appears twice in one object: keep one")
  }

  @Test func trailingCommasAreRefusedWhereTheyAre() {
    expectScenarioError(
      "{\n  \"name\": \"tiny\",\n}", "$: is not valid JSON at line 3, column 1: a trailing comma before '}': remove it")
    expectScenarioError(
      "{ \"keys\": [1, 2, ] }", "$: is not valid JSON at line 1, column 18: a trailing comma before ']': remove it")
  }

  @Test func aNumberBeyondADoubleNamesItsField() {
    expectScenarioError(
      minimalScenario(experiments: defaultExperiment.replacingOccurrences(of: #""weight": 2"#, with: #""weight": 1e999"#)),
      "versions[0].experiments[0].variants[0].weight: 1e999 is out of range: a number must be below 1.8e308 in magnitude")
    expectScenarioError(
      minimalScenario(experiments: defaultExperiment.replacingOccurrences(of: "[0, 0.5]", with: "[0, -1e400]")),
      "versions[0].experiments[0].tokenRange[1]: -1e400 is out of range: a number must be below 1.8e308 in magnitude")
  }

  @Test func syntaxErrorsGiveLineAndColumn() {
    expectScenarioError(
      "{\n  \"name\": \"tiny\"\n  \"seed\": 7\n}",
      "$: is not valid JSON at line 3, column 3: ',' or '}' was expected: check for a missing comma or brace")
    expectScenarioError("{ \"é\": tru }", "$: is not valid JSON at line 1, column 8: not a JSON value: text must be in double quotes")
    expectScenarioError("[1] [2]", "$: is not valid JSON at line 1, column 5: unexpected text after the document's end")
    expectScenarioError("{ \"a\": 01 }", "$: is not valid JSON at line 1, column 9: a number cannot start with 0 followed by digits")
    expectScenarioError("{ \"a\": \"x\ty\" }", "$: is not valid JSON at line 1, column 10: a control character inside a string: write it as an escape such as \\n")
    expectScenarioError("", "$: is not valid JSON at line 1, column 1: the document ends where a value was expected")
  }

  @Test func textThatIsNotUTF8IsRefused() {
    var bytes = Array(#"{ "name": "ti"#.utf8)
    bytes += [0xFF, 0xFE]
    bytes += Array(#"ny" }"#.utf8)
    #expect(throws: ScenarioError(path: "$", message: "is not valid JSON at line 1, column 11: a string is not valid UTF-8: save the file as UTF-8")) {
      try Scenario.parse(Data(bytes))
    }
  }

  @Test func aByteOrderMarkIsSkipped() throws {
    let (scenario, _) = try Scenario.parse(Data([0xEF, 0xBB, 0xBF] + Array(minimalScenario().utf8)))
    #expect(scenario.name == "tiny")
  }

  @Test func escapesDecodeToTheirCharacters() throws {
    let text = minimalScenario(extra: #", "description": "a\"b\\c\/\u00e9\ud83d\ude00\n""#)
    let (scenario, _) = try parse(text)
    #expect(scenario.description == "a\"b\\c/é😀\n")
    expectScenarioError(
      minimalScenario(extra: #", "description": "\ud83d""#),
      "$: is not valid JSON at line 1, column 80: a \\u escape names half of a surrogate pair")
  }

  @Test func deepNestingIsRefusedBeforeItExhaustsTheStack() {
    let depth = 100_000
    expectScenarioError(
      String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
      "$: is not valid JSON at line 1, column 65: nested deeper than 64 levels, which no scenario or vendor file needs")
  }

  /// A 20 MB misspelt field once took 30 s in the "did you mean" search and
  /// was echoed whole; now the suggestion is skipped and the name shortened.
  @Test func aHugeUnknownFieldNameIsShortenedAndNotCompared() {
    let name = String(repeating: "x", count: 20_000_000)
    do {
      _ = try parse(minimalScenario(extra: #", "\#(name)": 1"#))
      Issue.record("expected an error")
    } catch {
      #expect(error.path == String(repeating: "x", count: 60) + "…")
      #expect(!error.message.contains("did you mean"))
      #expect(error.message.hasPrefix("is not a known field (known: "))
    }
  }
}
