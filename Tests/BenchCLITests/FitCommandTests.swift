import Foundation
import Testing

@testable import BenchCLI

/// `bench fit`'s refusals, each naming the option and the fix, and what it
/// writes of names that come from the export.
@Suite struct FitCommandTests {
  @Test func badOptionsAreRefusedByName() throws {
    let export = repositoryRoot.appendingPathComponent("docs/examples/exports/amplitude.jsonl").path
    let out = try temporaryFolder()
    let cases: [([String], String)] = [
      (["--out", "w.json"], "bench fit reads a tool's export: give --preset amplitude (or another tool), or --map FILE.json."),
      (["--preset", "amplitude", "--out", "w.txt"], "--out names the scenario file to write, ending in .json, not 'w.txt'."),
      (["--preset", "heap", "--out", "w.json"],
       "--preset takes amplitude, mixpanel, segment, statsig, firebase, not 'heap'; for another tool describe its export with --map FILE.json."),
      (["--preset", "amplitude", "--out", "w.json", "--name", "my world"],
       "--name must be letters, digits, - and _ (it names the report's folder), not 'my world'."),
      (["--preset", "amplitude", "--out", out.appendingPathComponent("w.json").path],
       "\(export): spans 5 days; the fit needs at least 7 to tell activity from installs."),
    ]
    for (arguments, message) in cases {
      let result = try BenchProcess.run(["fit", export] + arguments)
      #expect(result.status != 0)
      #expect(result.standardError.contains(message), "\(result.standardError)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
  }

  /// A link or a folder where the world would go is refused, not replaced.
  @Test func anOutputThatIsNotAFileIsRefused() throws {
    let folder = try temporaryFolder()
    let link = folder.appendingPathComponent("world.json")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/null")
    #expect(throws: (any Error).self) { try OutputTarget.requireFileOrNothing(link.path, option: "--out") }
    #expect(throws: (any Error).self) { try OutputTarget.requireFileOrNothing(folder.path, option: "--out") }
    try OutputTarget.requireFileOrNothing(folder.appendingPathComponent("new.json").path, option: "--out")
    let file = folder.appendingPathComponent("old.json")
    try Data("{}".utf8).write(to: file)
    try OutputTarget.requireFileOrNothing(file.path, option: "--out")
  }

  /// Names from an export are plain text in the fit report.
  @Test func namesFromTheExportNeverBecomeMarkup() {
    #expect(FitReport.text("4.2|beta") == #"4.2\|beta"#)
    #expect(FitReport.text("*iOS*\n# x") == ##"\*iOS\* \# x"##)
    #expect(FitReport.text("[a](b)<img>") == #"\[a\](b)\<img\>"#)
  }
}
