import Foundation
import Testing

/// The libraries an app links are Apache-2.0 and link nothing GPL: an app
/// store cannot ship GPL code, so one stray import of the statistics would
/// make Lab unusable in the apps it exists for.
@Suite struct LicenceTests {
  private static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources")

  /// The permissive modules, and the modules each may import.
  private static let permissive: [String: Set<String>] = [
    "Lab": ["Foundation"],
    "Bucketing": ["Foundation", "JSONDocument", "Digests"],
    "JSONDocument": ["Foundation"],
    "Digests": ["Foundation"],
    "Enrollment": ["Foundation", "Lab"],
    "LabTestKit": ["Foundation", "Lab", "Enrollment"],
  ]

  @Test(arguments: permissive.keys.sorted())
  func aModuleAppsLinkIsApacheLicensedThroughout(module: String) throws {
    let folder = Self.sources.appendingPathComponent(module)
    let licence = try String(contentsOf: folder.appendingPathComponent("LICENSE"), encoding: .utf8)
    #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
    let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
      .filter { $0.hasSuffix(".swift") }
    #expect(!files.isEmpty)
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      #expect(text.hasPrefix("// SPDX-License-Identifier: Apache-2.0\n"), "\(module)/\(file)")
      let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst(7)) }
      for imported in imports {
        #expect(Self.permissive[module]!.contains(imported), "\(module)/\(file) imports \(imported)")
      }
    }
  }
}
