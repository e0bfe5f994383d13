import Foundation
import ScenarioFormat
import Simulation

/// What one shard of a run found: the exact counts of the devices it
/// simulated, and everything needed to refuse merging it with a part of
/// another run.
///
/// A part carries the scenario file itself, so that `bench merge` needs
/// nothing but the parts, and a SHA-256 of the scenario and of the whole part,
/// so that a part of another scenario, or one cut short or altered on its way
/// back from a cluster, is refused rather than merged. The format is text: a
/// header of `key value` lines, the scenario's bytes, one line of counts per
/// replication the shard reached (in `RunTally.visitCounts` order), and the
/// checksum line last.
public struct PartialResult: Sendable {
  /// The part format this bench writes and reads.
  public static let formatVersion = 1
  static let magic = "lab-bench part"

  /// The version of the bench that wrote the part: counts from two versions
  /// of the engine do not add up to either's run.
  public let benchVersion: String
  /// The scenario file's bytes, as read.
  public let scenarioFile: [UInt8]
  /// The seed and population after `--seed` and `--devices`.
  public let seed: UInt64
  public let devices: Int
  public let replications: Int
  public let shard: Shard
  /// One tally per replication the shard reached, in replication order.
  public let pieces: [PieceTally]

  /// The counts of one piece of a shard.
  public struct PieceTally: Sendable {
    public let piece: Shard.Piece
    public let tally: RunTally

    public init(piece: Shard.Piece, tally: RunTally) {
      self.piece = piece
      self.tally = tally
    }
  }

  public init(
    benchVersion: String, scenarioFile: [UInt8], seed: UInt64, devices: Int, replications: Int, shard: Shard,
    pieces: [PieceTally]
  ) {
    self.benchVersion = benchVersion
    self.scenarioFile = scenarioFile
    self.seed = seed
    self.devices = devices
    self.replications = replications
    self.shard = shard
    self.pieces = pieces
  }

  /// The SHA-256 of the scenario file: what names the scenario in a part.
  public var scenarioDigest: String { SHA256.hex(of: scenarioFile) }

  /// The file name a shard's part takes: `upgrade.shard-3-of-8.part`.
  public static func fileName(scenario: String, shard: Shard) -> String {
    "\(scenario).shard-\(shard.index)-of-\(shard.count).part"
  }

  /// The scenario the part simulated, with its seed and population.
  public func scenario(path: String) throws(ShardError) -> Scenario {
    do {
      var scenario = try Scenario.parse(Data(scenarioFile)).scenario
      scenario.seed = seed
      scenario.devices = devices
      return scenario
    } catch {
      throw .corrupt(path: path, problem: "its scenario does not read (\(error))")
    }
  }

  // MARK: Writing

  /// The part as it goes to disk.
  public func encoded() -> [UInt8] {
    var text: [UInt8] = []
    func line(_ string: String) { text += Array((string + "\n").utf8) }
    line("\(Self.magic) \(Self.formatVersion)")
    line("bench \(benchVersion)")
    line("seed \(seed)")
    line("devices \(devices)")
    line("replications \(replications)")
    line("shard \(shard)")
    line("scenario \(scenarioDigest) \(scenarioFile.count)")
    text += scenarioFile
    line("")
    for piece in pieces {
      var writer = CountWriter()
      var tally = piece.tally
      tally.visitCounts(&writer)
      line("piece \(piece.piece.replication) \(piece.piece.devices.lowerBound) \(piece.piece.devices.upperBound)")
      text += writer.text
      line("")
    }
    line("sha256 \(SHA256.hex(of: text))")
    return text
  }

  // MARK: Reading

  /// The header of a part, read and checked without its counts, so that
  /// parts can be compared before any is decoded.
  public struct Header: Sendable {
    public let path: String
    public let benchVersion: String
    public let seed: UInt64
    public let devices: Int
    public let replications: Int
    public let shard: Shard
    public let scenarioDigest: String
    public let scenarioFile: [UInt8]
    /// Where the piece lines start.
    let body: ArraySlice<UInt8>
  }

  /// Reads and checks a part's header and checksum.
  public static func header(of bytes: [UInt8], path: String) throws(ShardError) -> Header {
    guard bytes.starts(with: Array(magic.utf8)) else { throw .notAPart(path: path) }
    guard let checksumStart = checksumLineStart(bytes) else { throw .truncated(path: path) }
    let checksumLine = String(decoding: bytes[checksumStart..<(bytes.count - 1)], as: UTF8.self)
    guard checksumLine == "sha256 \(SHA256.hex(of: bytes[..<checksumStart]))" else {
      throw .checksumMismatch(path: path)
    }
    var reader = LineReader(bytes: bytes[..<checksumStart], path: path)
    let version = try reader.value(of: magic)
    guard version == String(formatVersion) else { throw .unsupportedFormat(path: path, version: version) }
    let benchVersion = try reader.value(of: "bench")
    let seed: UInt64 = try reader.number(of: "seed")
    let devices: Int = try reader.number(of: "devices")
    let replications: Int = try reader.number(of: "replications")
    let shardText = try reader.value(of: "shard")
    let shard: Shard
    do { shard = try Shard(parsing: shardText) } catch { throw .corrupt(path: path, problem: "its shard '\(shardText)' does not read") }
    let scenarioLine = try reader.value(of: "scenario").split(separator: " ")
    guard scenarioLine.count == 2, let length = Int(scenarioLine[1]), length >= 0 else {
      throw .corrupt(path: path, problem: "its scenario line does not read")
    }
    let scenarioFile = try reader.bytes(length)
    try reader.endOfLine()
    guard String(scenarioLine[0]) == SHA256.hex(of: scenarioFile) else {
      throw .corrupt(path: path, problem: "its scenario does not match the scenario's digest")
    }
    guard devices > 0, replications > 0 else {
      throw .corrupt(path: path, problem: "it has no devices or no replications")
    }
    return Header(
      path: path, benchVersion: benchVersion, seed: seed, devices: devices, replications: replications, shard: shard,
      scenarioDigest: String(scenarioLine[0]), scenarioFile: scenarioFile, body: reader.rest)
  }

  /// Reads a part whose header has been checked, for the plan of its scenario.
  public static func decode(_ header: Header, plan: SimulationPlan) throws(ShardError) -> PartialResult {
    var reader = LineReader(bytes: header.body, path: header.path)
    var pieces: [PieceTally] = []
    let expected = header.shard.pieces(replications: header.replications, devices: header.devices)
    for piece in expected {
      let fields = try reader.value(of: "piece").split(separator: " ").compactMap { Int($0) }
      guard fields == [piece.replication, piece.devices.lowerBound, piece.devices.upperBound] else {
        throw .corrupt(path: header.path, problem: "its pieces are not those of shard \(header.shard)")
      }
      var counts = CountReader(line: try reader.line(), path: header.path)
      var tally = RunTally(plan: plan)
      tally.visitCounts(&counts)
      try counts.finish()
      guard tally.devices == piece.devices.count else {
        throw .corrupt(path: header.path, problem: "its replication \(piece.replication) counts the wrong number of devices")
      }
      pieces.append(PieceTally(piece: piece, tally: tally))
    }
    guard reader.isAtEnd else { throw .corrupt(path: header.path, problem: "it has more pieces than its shard") }
    return PartialResult(
      benchVersion: header.benchVersion, scenarioFile: header.scenarioFile, seed: header.seed, devices: header.devices,
      replications: header.replications, shard: header.shard, pieces: pieces)
  }

  /// Where the last line starts, when the file ends with a newline.
  private static func checksumLineStart(_ bytes: [UInt8]) -> Int? {
    guard bytes.last == UInt8(ascii: "\n") else { return nil }
    let start = (bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
    return bytes[start...].starts(with: Array("sha256 ".utf8)) ? start : nil
  }
}

/// Writes counts as decimal numbers separated by spaces; an absent count is `-`.
private struct CountWriter: TallyVisitor {
  var text: [UInt8] = []

  private mutating func append(_ string: String) {
    if !text.isEmpty { text.append(UInt8(ascii: " ")) }
    text += Array(string.utf8)
  }

  mutating func visit(_ count: inout Int) { append(String(count)) }
  mutating func visit(_ count: inout Int128) { append(String(count)) }
  mutating func visit(_ count: inout UInt128) { append(String(count)) }
  mutating func visit(_ count: inout Int?) { append(count.map { String($0) } ?? "-") }
}

/// Reads the counts `CountWriter` wrote, in the same order.
private struct CountReader: TallyVisitor {
  private var fields: [Substring]
  private var next = 0
  private let path: String
  private(set) var problem: String?

  init(line: String, path: String) {
    fields = line.split(separator: " ", omittingEmptySubsequences: false)
    if fields == [""] { fields = [] }
    self.path = path
  }

  private mutating func field() -> Substring? {
    guard next < fields.count else {
      problem = problem ?? "it holds fewer counts than its scenario needs"
      return nil
    }
    defer { next += 1 }
    return fields[next]
  }

  private mutating func number<Number: FixedWidthInteger>(_: Number.Type) -> Number {
    guard let field = field() else { return 0 }
    guard let value = Number(field) else {
      problem = problem ?? "'\(field.prefix(40))' is not a count"
      return 0
    }
    return value
  }

  mutating func visit(_ count: inout Int) { count = number(Int.self) }
  mutating func visit(_ count: inout Int128) { count = number(Int128.self) }
  mutating func visit(_ count: inout UInt128) { count = number(UInt128.self) }
  mutating func visit(_ count: inout Int?) {
    if next < fields.count, fields[next] == "-" {
      next += 1
      count = nil
    } else {
      count = number(Int.self)
    }
  }

  func finish() throws(ShardError) {
    if let problem { throw .corrupt(path: path, problem: problem) }
    guard next == fields.count else {
      throw .corrupt(path: path, problem: "it holds more counts than its scenario needs")
    }
  }
}

/// Reads a part line by line, with the scenario's bytes taken whole.
private struct LineReader {
  private(set) var rest: ArraySlice<UInt8>
  let path: String

  init(bytes: ArraySlice<UInt8>, path: String) {
    rest = bytes
    self.path = path
  }

  var isAtEnd: Bool { rest.isEmpty }

  mutating func line() throws(ShardError) -> String {
    guard let end = rest.firstIndex(of: UInt8(ascii: "\n")) else {
      throw .corrupt(path: path, problem: "it ends in the middle of a line")
    }
    defer { rest = rest[(end + 1)...] }
    return String(decoding: rest[..<end], as: UTF8.self)
  }

  /// The rest of a `key value` line.
  mutating func value(of key: String) throws(ShardError) -> String {
    let line = try line()
    guard line.hasPrefix(key + " ") else {
      throw .corrupt(path: path, problem: "'\(key)' was expected where it reads '\(line.prefix(40))'")
    }
    return String(line.dropFirst(key.count + 1))
  }

  mutating func number<Number: FixedWidthInteger>(of key: String) throws(ShardError) -> Number {
    let text = try value(of: key)
    guard let number = Number(text) else { throw .corrupt(path: path, problem: "its \(key) '\(text)' is not a number") }
    return number
  }

  mutating func bytes(_ count: Int) throws(ShardError) -> [UInt8] {
    guard rest.count >= count else { throw .corrupt(path: path, problem: "its scenario is cut short") }
    defer { rest = rest.dropFirst(count) }
    return Array(rest.prefix(count))
  }

  mutating func endOfLine() throws(ShardError) {
    guard rest.first == UInt8(ascii: "\n") else { throw .corrupt(path: path, problem: "its scenario is longer than it says") }
    rest = rest.dropFirst()
  }
}
