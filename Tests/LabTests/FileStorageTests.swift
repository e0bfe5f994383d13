import Foundation
import Lab
import Testing

@Suite struct FileStorageTests {
  private func temporaryURL() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("lab-storage-\(UUID().uuidString).json")
  }

  @Test func valuesSurviveReopening() throws {
    let url = temporaryURL()
    defer { try? FileManager.default.removeItem(at: url) }
    let storage = try FileStorage(url: url)
    try storage.setValue("active:B", forKey: "Lab.LocalSource.E")
    try storage.setValue("x", forKey: "Other")
    try storage.setValue(nil, forKey: "Other")
    let reopened = try FileStorage(url: url)
    #expect(reopened.value(forKey: "Lab.LocalSource.E") == "active:B")
    #expect(reopened.value(forKey: "Other") == nil)
    #expect(reopened.keys(withPrefix: "Lab.") == ["Lab.LocalSource.E"])
  }

  @Test func anUnreadableFileIsAnError() throws {
    let url = temporaryURL()
    defer { try? FileManager.default.removeItem(at: url) }
    try Data("not json".utf8).write(to: url)
    #expect {
      try FileStorage(url: url)
    } throws: { error in
      guard case FileStorageError.unreadable(let path, _) = error else { return false }
      return path == url.path
    }
  }

  @Test func aFailedWriteKeepsTheOldValue() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("missing-\(UUID().uuidString)").appendingPathComponent("lab.json")
    let storage = try FileStorage(url: url)
    #expect(throws: FileStorageError.self) { try storage.setValue("1", forKey: "k") }
    #expect(storage.value(forKey: "k") == nil)
  }
}
