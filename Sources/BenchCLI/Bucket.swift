import ArgumentParser
import Bucketing
import Foundation
import Platforms
import ScenarioFormat

extension Bench {
  /// Prints what a hash-bucketed service decides for ids, and why.
  public struct Bucket: ParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Print what a feature-flag or experiment service decides for user ids, and why.",
      discussion: """
        Reads the service's own configuration, unchanged: an Optimizely datafile, a GrowthBook \
        features payload, LaunchDarkly flag data ({"flags", "segments"}, as its file data source \
        reads it), a Statsig download_config_specs response, an Eppo universal flag configuration \
        or an Unleash client features response. For each id and experiment or flag it prints the \
        variation, the bucket (Optimizely: 0 to 9999; GrowthBook and LaunchDarkly: the hash in \
        [0, 1)) and the reason, by the same rules as the vendors' SDKs; for GrowthBook, each \
        feature's value too, with where it came from and the rule that decided (the first rule that \
        applies). Ids come as arguments, or one per line on standard input.
        """
    )

    @Option(help: "The service: \(PlatformRegistry.standard.names.joined(separator: ", ")).")
    var framework: PlatformChoice

    @Option(help: "The service's own configuration file (a datafile, payload or flag data).", completion: .file(extensions: ["json"]))
    var config: String

    @Option(help: "The user's attributes, as a JSON object, e.g. '{\"platform\": \"iOS\"}'.")
    var attributes: String = "{}"

    @Flag(help: "Print one JSON object per id and experiment (and, for GrowthBook, per id and feature).")
    var json = false

    @Argument(help: "The user ids; read from standard input, one per line, when none is given.")
    public var ids: [String] = []

    public init() {}

    /// `bench bucket`'s arguments with the ids taken out: the options (and
    /// their values) for the parser, the ids in their order. The parser
    /// removes each positional argument from its list one at a time, so
    /// 20,000 ids as arguments took it 1 minute 44 seconds where the same ids
    /// on standard input took 2.5 (docs/platforms.md); the ids skip it. An
    /// argument after `--` is an id, whatever it starts with.
    public static func separatingIDs(_ arguments: [String]) -> (options: [String], ids: [String]) {
      let takesValue: Set<String> = ["--framework", "--config", "--attributes"]
      var options: [String] = [], ids: [String] = []
      var index = arguments.startIndex
      while index < arguments.endIndex {
        let argument = arguments[index]
        if argument == "--" {
          ids += arguments[(index + 1)...]
          break
        }
        if argument.hasPrefix("-") && argument.count > 1 {
          options.append(argument)
          if takesValue.contains(argument), index + 1 < arguments.endIndex {
            options.append(arguments[index + 1])
            index += 1
          }
        } else {
          ids.append(argument)
        }
        index += 1
      }
      return (options, ids)
    }

    /// Checks --attributes while the parser knows the command, so that its
    /// error comes with `bench bucket`'s usage.
    public func validate() throws {
      try framework.checkAttributes(attributes)
    }

    public func run() throws {
      let ids = self.ids.isEmpty ? Self.standardInputLines() : self.ids
      guard !ids.isEmpty else {
        throw ValidationError("Give the user ids as arguments, or one per line on standard input.")
      }
      if let (line, character) = IDLines.firstControlCharacter(in: ids) {
        throw ValidationError(
          "Id \(line) holds the control character \(character), which no id has: give the ids as text, one per line.")
      }
      let data = try Self.configuration(config, option: "--config")
      let decisions = try Self.decisions(framework, config: data, option: "--config", path: config, ids: ids, attributes: attributes)
      for row in decisions.lines {
        print(json ? row.json.renderedOnOneLine() : row.text)
      }
    }

    /// A vendor's file, read (pipes too) and checked as strict JSON, with the
    /// line and column of a syntax error.
    static func configuration(_ path: String, option: String) throws -> Data {
      let data = try InputFile.read(path, option: option)
      do {
        try StrictJSON.check(data)
      } catch {
        throw BenchError.invalidFile(option: option, problem: "\(path): \(error)")
      }
      return data
    }

    /// The decisions for `ids` under the file at `path`; what the SDK
    /// tolerates but the file's author did not mean is said on standard
    /// error (with `warns`, so that a file decided in pieces says it once),
    /// before the decisions it shapes.
    static func decisions(
      _ framework: PlatformChoice, config data: Data, option: String, path: String, ids: [String], attributes: String,
      flags: Bool = true, warns: Bool = true
    ) throws -> BucketDecisions {
      let decisions: BucketDecisions
      do {
        decisions = try framework.decide(config: data, ids: ids, attributes: attributes, flags: flags)
      } catch let error as ValidationError {
        throw error
      } catch {
        throw BenchError.invalidFile(option: option, problem: "\(error)")
      }
      for problem in decisions.problems where warns {
        FileHandle.standardError.write(Data("Warning: \(path): \(problem)\n".utf8))
      }
      return decisions
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
        let trimmed = (lines.isEmpty ? IDLines.droppingByteOrderMark(line) : line).trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty { lines.append(trimmed) }
      }
      return lines
    }
  }
}
