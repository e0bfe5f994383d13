import Foundation
import Platforms
import Testing

@testable import ScenarioFormat

/// The JSON Schema that editors use must describe exactly what the reader accepts.
@Suite struct SchemaTests {
  private func definitions() throws -> [String: Any] {
    let url = repositoryRoot.appendingPathComponent("docs/scenario.schema.json")
    let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    return try #require(schema["$defs"] as? [String: Any])
  }

  @Test func everyObjectListsTheFieldsTheReaderAccepts() throws {
    let definitions = try definitions()
    for (name, fields) in ScenarioFields.byDefinition {
      let definition = try #require(definitions[name] as? [String: Any], "schema lacks \(name)")
      let properties = try #require(definition["properties"] as? [String: Any])
      #expect(Set(properties.keys) == Set(fields), "\(name)")
      #expect(definition["additionalProperties"] as? Bool == false, "\(name) must reject unknown fields")
    }
  }

  /// The platforms an editor offers for `service.framework` are the registry's, in its order.
  @Test func theFrameworksAreTheRegistrysPlatforms() throws {
    let service = try #require(try definitions()["service"] as? [String: Any])
    let framework = try #require((service["properties"] as? [String: Any])?["framework"] as? [String: Any])
    #expect(framework["enum"] as? [String] == PlatformRegistry.standard.names)
  }
}
