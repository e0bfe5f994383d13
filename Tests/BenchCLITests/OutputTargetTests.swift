import Foundation
import Testing

/// README.md, "Where the bench writes": a file's target is replaced whole, a
/// link to a file keeps its link, a device or a pipe is written through and
/// never replaced, and a folder or a link to nothing is refused.
@Suite struct OutputTargetTests {
  private func plan(_ arguments: [String]) throws -> BenchProcess.Result {
    try BenchProcess.run(["test", committedScenario("upgrade"), "--replications", "2", "--quiet"] + arguments)
  }

  private func kind(_ path: String) -> mode_t {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
  }

  /// /dev/null stays the device: the JUnit XML is written through it.
  @Test func aDeviceIsWrittenThroughNotReplaced() throws {
    let result = try plan(["--junit", "/dev/null"])
    #expect(result.status == 0 || result.status == 1, "\(result.standardError)")
    #expect(!result.standardError.contains("cannot be written"), "\(result.standardError)")
    #expect(kind("/dev/null") == S_IFCHR)
  }

  /// A pipe is read as the rows come: the events table arrives through it.
  @Test func aPipeReceivesTheRows() throws {
    let folder = try temporaryFolder()
    let fifo = folder.appendingPathComponent("events.fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = Process()
    reader.executableURL = URL(fileURLWithPath: "/bin/cat")
    reader.arguments = [fifo]
    let output = Pipe()
    reader.standardOutput = output
    try reader.run()
    let result = try BenchProcess.run([
      committedScenario("upgrade"), "--devices", "50", "--replications", "1", "--out", folder.path, "--events", fifo,
      "--outcomes", folder.appendingPathComponent("outcomes.csv").path, "--quiet",
    ])
    // A bench that never opened the pipe would leave cat waiting for a writer: open and close one
    // without waiting, so that the test fails rather than hangs (harmless once the bench closed it).
    let unblock = open(fifo, O_WRONLY | O_NONBLOCK)
    if unblock >= 0 { close(unblock) }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    reader.waitUntilExit()
    #expect(result.status == 0, "\(result.standardError)")
    #expect(text.hasPrefix("value,key,variant,experiment,source,reason,id_for_vendor,day,version"), "\(text.prefix(80))")
    #expect(text.split(separator: "\n").count > 50)
    #expect(kind(fifo) == S_IFIFO)
  }

  /// A link to a file stays a link; the file it names gets the XML.
  @Test func aLinkKeepsItsLinkAndItsFileIsReplaced() throws {
    let folder = try temporaryFolder()
    let file = folder.appendingPathComponent("real.xml").path, link = folder.appendingPathComponent("link.xml").path
    try "old".write(toFile: file, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    _ = try plan(["--junit", link])
    #expect(kind(link) == S_IFLNK)
    #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("<?xml"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["link.xml", "real.xml"])
  }

  /// A folder and a link to nothing are refused by path, and left as they were.
  @Test func aFolderOrADanglingLinkIsRefused() throws {
    let folder = try temporaryFolder()
    let dangling = folder.appendingPathComponent("gone.xml").path
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder.appendingPathComponent("missing").path)
    let intoFolder = try plan(["--junit", folder.path])
    #expect(intoFolder.status != 0 && intoFolder.standardError.contains("cannot write '\(folder.path)' (is a folder; name a file to write)"),
      "\(intoFolder.standardError)")
    let intoNothing = try plan(["--junit", dangling])
    #expect(intoNothing.status != 0 && intoNothing.standardError.contains("is a link to nothing that exists"), "\(intoNothing.standardError)")
    #expect(kind(dangling) == S_IFLNK && kind(folder.path) == S_IFDIR)
  }

  /// --events through a device needs --outcomes: its table goes beside a file only.
  @Test func eventsThroughADeviceNeedOutcomesOfTheirOwn() throws {
    let result = try BenchProcess.run([committedScenario("upgrade"), "--devices", "50", "--events", "/dev/null", "--quiet"])
    #expect(result.status != 0)
    #expect(result.standardError.contains(
      "--events /dev/null is a device or a pipe, which the rows are written through; the outcomes table goes beside a file only: give --outcomes FILE too."),
      "\(result.standardError)")
    #expect(kind("/dev/null") == S_IFCHR)
  }
}
