import ArgumentParser
import Bucketing
import Foundation
import JSONDocument
import Platforms

/// `--framework` of `bench bucket` and `bench impact`: a platform of the
/// registry, by name, with the decisions both commands print.
package struct PlatformChoice: ExpressibleByArgument {
  package let plugin: any Platform.Type

  package init(_ plugin: any Platform.Type) {
    self.plugin = plugin
  }

  package init?(argument: String) {
    guard let plugin = PlatformRegistry.standard.plugin(named: argument) else { return nil }
    self.plugin = plugin
  }

  package static var allValueStrings: [String] { PlatformRegistry.standard.names }

  /// Refuses `--attributes` that are not a JSON object, or that the platform's
  /// context cannot hold, naming the member and the fix.
  package func checkAttributes(_ text: String) throws {
    do {
      try plugin.checkAttributes(try Self.attributes(text).json)
    } catch let error as PlatformInputError {
      throw ValidationError(error.description)
    }
  }

  /// The decisions for every id and row of `config` (the platform's own file,
  /// unchanged) with the `--attributes` object `attributes`. Without `flags`,
  /// rows that are not experiments are left out.
  package func decide(config: Data, ids: [String], attributes: String, flags: Bool = true) throws -> BucketDecisions {
    try checkAttributes(attributes)
    return try plugin.decisions(config: config, ids: ids, attributes: Self.attributes(attributes), flags: flags, now: Date())
  }

  /// `--attributes` read in both forms the platforms take: an error names the flag and the fix.
  static func attributes(_ text: String) throws -> BucketAttributes {
    let values = try Bench.Bucket.attributes(text)
    guard case .object(let members) = try JSONValue.parse(Data(text.utf8)) else {
      throw ValidationError("--attributes must be a JSON object")
    }
    return BucketAttributes(values: values, json: members)
  }
}
