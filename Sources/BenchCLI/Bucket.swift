import ArgumentParser
import Bucketing
import Foundation
import ScenarioFormat

extension Bench {
  /// Prints what a hash-bucketed service decides for ids, and why.
  public struct Bucket: ParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Print what Optimizely or GrowthBook decides for user ids, and why.",
      discussion: """
        Reads the service's own configuration, unchanged: an Optimizely datafile, or a GrowthBook \
        features payload as the SDKs receive it. For each id and experiment it prints the variation, \
        the bucket (Optimizely: 0 to 9999; GrowthBook: the hash in [0, 1)) and the reason, by the \
        same rules as the vendors' SDKs; for GrowthBook, each feature's value too, with where it came \
        from and the rule that decided (the first rule that applies). Ids come as arguments, or one \
        per line on standard input.
        """
    )

    enum Framework: String, ExpressibleByArgument, CaseIterable {
      case optimizely, growthbook
    }

    @Option(help: "The service: optimizely or growthbook.")
    var framework: Framework

    @Option(help: "The datafile (optimizely) or features payload (growthbook).", completion: .file(extensions: ["json"]))
    var config: String

    @Option(help: "The user's attributes, as a JSON object, e.g. '{\"platform\": \"iOS\"}'.")
    var attributes: String = "{}"

    @Flag(help: "Print one JSON object per id and experiment (and, for GrowthBook, per id and feature).")
    var json = false

    @Argument(help: "The user ids; read from standard input, one per line, when none is given.")
    var ids: [String] = []

    public init() {}

    /// Checks --attributes while the parser knows the command, so that its
    /// error comes with `bench bucket`'s usage.
    public func validate() throws {
      _ = try Self.attributes(attributes)
    }

    public func run() throws {
      let parsedAttributes = try Self.attributes(attributes)
      let ids = self.ids.isEmpty ? Self.standardInputLines() : self.ids
      guard !ids.isEmpty else {
        throw ValidationError("Give the user ids as arguments, or one per line on standard input.")
      }
      guard let data = FileManager.default.contents(atPath: config) else {
        throw BenchError.unreadableFile(option: "--config", path: config)
      }
      do {
        try StrictJSON.check(data)
      } catch {
        throw BenchError.invalidFile(option: "--config", problem: "\(config): \(error)")
      }
      let rows: [BucketDecisions.Line]
      let problems: [String]
      do {
        switch framework {
        case .optimizely:
          let datafile = try OptimizelyDatafile(json: data)
          problems = datafile.problems
          rows = BucketDecisions.optimizely(datafile, ids: ids, attributes: parsedAttributes)
        case .growthbook:
          let payload = try GrowthBookPayload(json: data)
          problems = payload.problems
          rows = BucketDecisions.growthBook(payload, ids: ids, attributes: parsedAttributes)
        }
      } catch {
        throw BenchError.invalidFile(option: "--config", problem: "\(error)")
      }
      // What the SDK tolerates but the file's author did not mean: said once, before the decisions it shapes.
      for problem in problems {
        FileHandle.standardError.write(Data("Warning: \(config): \(problem)\n".utf8))
      }
      for row in rows {
        print(json ? row.json.renderedOnOneLine() : row.text)
      }
    }

    /// `--attributes` read as `bench bucket` reads it (the fuzz target `attributes` calls it too).
    package static func attributes(_ text: String) throws -> [String: AttributeValue] {
      do {
        try StrictJSON.check(Data(text.utf8))
      } catch {
        throw ValidationError("--attributes: \(error); give a JSON object, e.g. '{\"platform\": \"iOS\"}'.")
      }
      guard let value = try? AttributeValue(json: Data(text.utf8)), case .object(let members) = value else {
        throw ValidationError("--attributes must be a JSON object, e.g. '{\"platform\": \"iOS\", \"app_version\": \"2.1.0\"}'.")
      }
      return members
    }

    static func standardInputLines() -> [String] {
      var lines: [String] = []
      while let line = readLine() {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty { lines.append(trimmed) }
      }
      return lines
    }
  }
}
