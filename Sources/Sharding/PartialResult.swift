import Digests
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
/// checksum line last (docs/cluster.md).
public struct PartialResult: Sendable {
  /// The part format this bench writes and reads.
  public static let formatVersion = 5
  static let magic = "lab-bench part"

  public let header: PartHeader
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

  public init(header: PartHeader, pieces: [PieceTally]) {
    self.header = header
    self.pieces = pieces
  }

  /// The file name a shard's part takes: `upgrade.shard-3-of-8.part`.
  public static func fileName(scenario: String, shard: Shard) -> String {
    "\(scenario).shard-\(shard.index)-of-\(shard.count).part"
  }

  // MARK: Writing

  /// The part as it goes to disk.
  public func encoded() -> [UInt8] {
    var text: [UInt8] = []
    func line(_ string: String) { text += Array((string + "\n").utf8) }
    line("\(Self.magic) \(Self.formatVersion)")
    line("bench \(header.benchVersion)")
    line("seed \(header.seed)")
    line("devices \(header.devices)")
    line("replications \(header.replications)")
    line("shard \(header.shard)")
    line("scenario \(header.scenarioDigest) \(header.scenarioFile.count)")
    text += header.scenarioFile
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

  /// A part file whose checksum and header have been read, so that parts can
  /// be compared before any count is decoded.
  struct Opened: Sendable {
    let path: String
    let header: PartHeader
    /// Where the piece lines start.
    let body: ArraySlice<UInt8>

    /// The part's pieces, for the plan of its scenario. Each piece line is
    /// checked against the shard's next piece as it is read, so a header that
    /// claims more than the file holds fails on the first missing line.
    func decode(plan: SimulationPlan) throws(ShardError) -> PartialResult {
      var reader = LineReader(bytes: body, path: path)
      var pieces: [PieceTally] = []
      for piece in header.shard.lazyPieces(replications: header.replications, devices: header.devices) {
        guard !reader.isAtEnd else { throw .corrupt(path: path, problem: "it holds fewer pieces than its shard") }
        let fields = try reader.value(of: "piece").split(separator: " ").compactMap { Int($0) }
        guard fields == [piece.replication, piece.devices.lowerBound, piece.devices.upperBound] else {
          throw .corrupt(path: path, problem: "its pieces are not those of shard \(header.shard)")
        }
        // No count of a run is negative or more than 64 a device and day: far above any real one, far
        // below what merging could overflow.
        let limit = piece.devices.count * max(plan.scenario.days, 1) * 64
        var counts = CountReader(line: try reader.line(), path: path, limit: limit)
        var tally = RunTally(plan: plan)
        tally.visitCounts(&counts)
        try counts.finish()
        guard tally.devices == piece.devices.count else {
          throw .corrupt(path: path, problem: "its replication \(piece.replication) counts the wrong number of devices")
        }
        if let inconsistency = tally.inconsistency {
          throw .corrupt(path: path, problem: "its counts contradict each other (\(inconsistency))")
        }
        pieces.append(PieceTally(piece: piece, tally: tally))
      }
      guard reader.isAtEnd else { throw .corrupt(path: path, problem: "it has more pieces than its shard") }
      return PartialResult(header: header, pieces: pieces)
    }
  }

  /// Reads and checks a part's checksum and header.
  static func open(_ bytes: [UInt8], path: String) throws(ShardError) -> Opened {
    guard bytes.starts(with: Array(magic.utf8)) else { throw .notAPart(path: path) }
    if let end = bytes.firstIndex(of: UInt8(ascii: "\n")), end > 0, bytes[end - 1] == UInt8(ascii: "\r") {
      throw .windowsLineEnds(path: path)
    }
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
    guard devices > 0, replications > 0 else {
      throw .corrupt(path: path, problem: "it has no devices or no replications")
    }
    // A checksum proves the part was not damaged, not that a run could have written it.
    guard ScenarioLimits.devices.contains(devices), ScenarioLimits.replications.contains(replications) else {
      throw .corrupt(
        path: path,
        problem: "it claims \(devices) devices and \(replications) replications, beyond the \(ScenarioLimits.devices.upperBound) "
          + "devices and \(ScenarioLimits.replications.upperBound) replications a run may have")
    }
    let header = PartHeader(
      benchVersion: benchVersion, scenarioFile: scenarioFile, seed: seed, devices: devices, replications: replications,
      shard: shard)
    guard String(scenarioLine[0]) == header.scenarioDigest else {
      throw .corrupt(path: path, problem: "its scenario does not match the scenario's digest")
    }
    return Opened(path: path, header: header, body: reader.rest)
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
  mutating func visit(low: inout UInt128, high: inout UInt128) {
    append(String(low))
    append(String(high))
  }
  mutating func visit(_ day: inout Int?, keeping _: DayBound) { append(day.map { String($0) } ?? "-") }
}

/// Reads the counts `CountWriter` wrote, in the same order.
private struct CountReader: TallyVisitor {
  private var fields: [Substring]
  private var next = 0
  private let path: String
  private(set) var problem: String?
  /// The largest whole count a piece of this size can hold.
  private let limit: Int

  init(line: String, path: String, limit: Int) {
    fields = line.split(separator: " ", omittingEmptySubsequences: false)
    if fields == [""] { fields = [] }
    self.path = path
    self.limit = limit
  }

  /// A count, refused when no run could have counted it.
  private mutating func count() -> Int {
    let value = number(Int.self)
    if value < 0 || value > limit {
      problem = problem ?? "it holds the count \(value), which no run of its devices and days can count"
    }
    return value
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

  mutating func visit(_ count: inout Int) { count = self.count() }
  mutating func visit(_ count: inout Int128) { count = number(Int128.self) }
  mutating func visit(low: inout UInt128, high: inout UInt128) {
    low = number(UInt128.self)
    high = number(UInt128.self)
  }
  mutating func visit(_ day: inout Int?, keeping _: DayBound) {
    if next < fields.count, fields[next] == "-" {
      next += 1
      day = nil
    } else {
      day = count()
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
