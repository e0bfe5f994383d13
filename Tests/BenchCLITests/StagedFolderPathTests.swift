import AtomicOutput
import Foundation
import Testing

/// A staged report folder writes only inside itself, whatever path reaches it.
@Suite struct StagedFolderPathTests {
  @Test func aPathThatCouldLeaveTheFolderIsRefused() throws {
    let root = try temporaryFolder()
    let target = root.appendingPathComponent("report")
    var folder = try StagedFolder(target: target)
    for path in ["../escape.svg", "a/../../escape.svg", "/tmp/escape.svg", "", "a//b.svg", "./a.svg", ".."] {
      let error = #expect(throws: OutputError.self) { try folder.write("x", to: path) }
      #expect(error?.reason == "would receive '\(path)', which is not a file inside it")
    }
    try folder.write("x", to: "framework/chart.svg")
    try folder.commit()
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["report"])
    #expect(try String(contentsOf: target.appendingPathComponent("framework/chart.svg"), encoding: .utf8) == "x")
  }
}
