import Foundation
import Testing

@testable import BenchCLI

/// The command line as a new user meets it: the usage line, the version,
/// completions, a scenario piped in, and output that cannot be written.
@Suite struct CommandLineTests {
  @Test func theUsageLineShowsTheMainCommand() throws {
    let help = try BenchProcess.run(["--help"])
    #expect(help.standardOutput.contains("""
      USAGE: bench <scenario.json> [--seed <seed>] [--devices <devices>] [--replications <replications>] [--out <folder>] ...
             bench <subcommand>
      """))
  }

  @Test func theVersionIsPrinted() throws {
    let result = try BenchProcess.run(["--version"])
    #expect(result.status == 0)
    #expect(result.standardOutput == Bench.configuration.version + "\n")
  }

  @Test func shellCompletionsAreGenerated() throws {
    for shell in ["bash", "zsh", "fish"] {
      let result = try BenchProcess.run(["--generate-completion-script", shell])
      #expect(result.status == 0)
      #expect(result.standardOutput.contains("bench"), "\(shell)")
    }
    // Paths complete as files of their kind: scenarios, tables, parts.
    let zsh = try BenchProcess.run(["--generate-completion-script", "zsh"]).standardOutput
    for kind in ["scenario:_files -g '\\''*.json", "events:_files -g '\\''*.csv", "part:_files -g '\\''*.part"] {
      #expect(zsh.contains(kind), "\(kind)")
    }
  }

  @Test func aScenarioIsReadFromStandardInput() throws {
    let text = try String(contentsOf: URL(fileURLWithPath: committedScenario("aa-test")), encoding: .utf8)
    let piped = try BenchProcess.run(["describe", "-"], input: text)
    let named = try BenchProcess.run(["describe", committedScenario("aa-test")])
    #expect(piped.status == 0)
    #expect(piped.standardOutput == named.standardOutput)
    let out = try temporaryFolder()
    let run = try BenchProcess.run(["-", "--devices", "300", "--out", out.path, "--quiet"], input: text)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("aa-test/report.md").path))
  }

  /// Output lost to a full disk once passed for success: at the exit's flush
  /// (a short output), or at a write before it (an output larger than the
  /// buffer, which leaves no reason behind).
  @Test func outputThatCannotBeWrittenFailsTheCommand() throws {
    func describe(_ scenario: String) throws -> (status: Int32, message: String) {
      let process = Process()
      process.executableURL = BenchProcess.executable
      process.arguments = ["describe", committedScenario(scenario)]
      process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
      let error = Pipe()
      process.standardError = error
      try process.run()
      let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (process.terminationStatus, message)
    }
    let short = try describe("aa-test")
    #expect(short.status == 74)
    #expect(short.message == "Error: cannot write to standard output (No space left on device).\n")
    let long = try describe("upgrade")
    #expect(long.status == 74)
    #expect(long.message == "Error: cannot write to standard output (an earlier write failed).\n")
  }
}

/// A first word that is no file and close to a command is taken for that
/// command, not read as a scenario.
@Suite struct CommandSuggestionTests {
  @Test func aMistypedCommandIsNamed() throws {
    func suggestion(_ arguments: [String], files: Set<String> = []) -> String? {
      Bench.suggestedSubcommand(for: arguments, fileExists: files.contains)
    }
    #expect(suggestion(["anlyze", "events.csv"]) == "analyze")
    #expect(suggestion(["anlyze"]) == "analyze")
    #expect(suggestion(["Compare", "x.json"]) == "compare")
    #expect(suggestion(["describ", "s.json"]) == "describe")
    // A file of that name, a command, an option, a word far from any: no suggestion.
    #expect(suggestion(["anlyze"], files: ["anlyze"]) == nil)
    #expect(suggestion(["analyze", "e.csv"]) == nil)
    #expect(suggestion(["--help"]) == nil)
    #expect(suggestion(["scenarios/upgrade.jsn"]) == nil)
    #expect(suggestion(["rn", "s.json"]) == "run")
    #expect(suggestion(["zzz"]) == nil)
    #expect(suggestion([]) == nil)
    let result = try BenchProcess.run(["anlyze", "events.csv"])
    #expect(result.status == 64)
    #expect(result.standardError
      == "Error: anlyze: no such file or command; did you mean `bench analyze`? (bench --help lists the commands)\n")
  }
}

/// `bench -` reads standard input in pieces: a directory, a closed input or
/// an endless one is one line of error, not a trap.
@Suite struct StandardInputTests {
  private func bench(withInput redirection: String) throws -> BenchProcess.Result {
    try BenchProcess.run(
      executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" - \(redirection)", BenchProcess.executable.path])
  }

  @Test func unreadableOrEndlessInputIsAnError() throws {
    for redirection in ["< /tmp", "<&-"] {
      let result = try bench(withInput: redirection)
      #expect(result.status == 1, "\(redirection)")
      #expect(result.standardError
        == "Error: standard input: cannot be read: pipe a scenario file into it, e.g. cat plan.json | bench -\n")
    }
    let endless = try bench(withInput: "< /dev/zero")
    #expect(endless.status == 1)
    #expect(endless.standardError
      == "Error: standard input: holds more than 16 MB, more than any scenario needs: check that it is a scenario file\n")
  }

  @Test func aFileLargerThanAnyScenarioIsRefusedUnread() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).json")
    #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: UInt64(17 << 20))
    try handle.close()
    defer { try? FileManager.default.removeItem(at: url) }
    let result = try BenchProcess.run(["describe", url.path])
    #expect(result.status == 1)
    #expect(result.standardError
      == "Error: \(url.path): holds more than 16 MB, more than any scenario needs: check that it is a scenario file\n")
  }
}
