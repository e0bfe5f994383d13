import Foundation
import Testing

/// The `bench` executable that `swift test` built next to the test bundle,
/// run as a user runs it.
struct BenchProcess {
  struct Result {
    let status: Int32
    let standardOutput: String
    let standardError: String
  }

  /// The bench executable.
  static var executable: URL { Bundle.main.bundleURL.appendingPathComponent("bench") }

  static func run(
    _ arguments: [String], in folder: URL? = nil, input: String? = nil, environment: [String: String]? = nil
  ) throws -> Result {
    try run(executable: executable, arguments, in: folder, input: input, environment: environment)
  }

  /// Runs any executable the way `run` runs the bench.
  static func run(
    executable: URL, _ arguments: [String], in folder: URL? = nil, input: String? = nil,
    environment: [String: String]? = nil
  ) throws -> Result {
    try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build the bench product first")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    if let environment { process.environment = environment }
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    let standardInput = Pipe()
    process.standardInput = standardInput
    try process.run()
    standardInput.fileHandleForWriting.write(Data((input ?? "").utf8))
    try standardInput.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }

  /// Writes `text` to a new temporary file and returns its path.
  static func temporaryFile(_ text: String, fileExtension: String = "json") throws -> String {
    let url = testScratch.appendingPathComponent("bench-\(UUID().uuidString).\(fileExtension)")
    try Data(text.utf8).write(to: url)
    return url.path
  }
}
