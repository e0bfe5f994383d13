import ArgumentParser
import Foundation
import Platforms
import Results

extension Bench {
  /// Shows who a configuration change moves, before it ships: each id's
  /// variation under the old file and under the new one, counted by pair.
  public struct Impact: ParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Count which users a change to a service's configuration moves, and where to.",
      discussion: """
        Decides every id under the configuration before the change and after it, by the same rules \\
        as `bench bucket` (the vendor's SDK), and counts the ids by experiment or flag and by pair \\
        of variations (from, to). Pairs whose variation stays are counted too, so each row's counts \\
        add up to the number of ids. A row of only one file has no variation (null) in the other. \\
        Optimizely's rows are its experiments (group experiments included); GrowthBook's its \\
        experiment rules.
        """
    )

    @Option(help: "The service: \(PlatformRegistry.standard.names.joined(separator: ", ")).")
    var framework: PlatformChoice

    @Option(help: "The configuration before the change, in the service's own format.", completion: .file(extensions: ["json"]))
    var before: String

    @Option(help: "The configuration after the change.", completion: .file(extensions: ["json"]))
    var after: String

    @Option(help: "A file of user ids, one per line.", completion: .file())
    var ids: String

    @Option(help: "The users' attributes, as a JSON object (the same for every id).")
    var attributes: String = "{}"

    @Flag(help: "Print one JSON object per row and pair: {\"experiment\", \"from\", \"to\", \"count\"}.")
    var json = false

    public init() {}

    public func validate() throws {
      try framework.checkAttributes(attributes)
    }

    /// One row and pair of variations, and how many ids take it.
    package struct Move: Hashable, Comparable {
      let experiment: String
      let from: String?
      let to: String?
      /// The variations' values, where the platform decides indexes (LaunchDarkly): an id whose
      /// index stays while the file gives the index another value is moved all the same.
      var fromValue: String? = nil
      var toValue: String? = nil

      /// What the change does to the ids of this pair. Only an id allocated
      /// before and after that changes arm moves: one the change brings into
      /// the experiment (an allocation raised) or out of it is no move, and a
      /// lead reading "ids move" would stop a release for nothing.
      enum Kind: String {
        /// The same arm, or outside the experiment, before and after.
        case stays
        /// An arm before and another after (or the same index with another value).
        case moves
        /// Outside the experiment before, in an arm after.
        case enters
        /// In an arm before, outside the experiment after.
        case leaves
      }

      var kind: Kind {
        switch (from, to) {
        case (nil, nil): .stays
        case (nil, _): .enters
        case (_, nil): .leaves
        default: from != to || fromValue != toValue ? .moves : .stays
        }
      }

      package static func < (a: Move, b: Move) -> Bool {
        a.order.lexicographicallyPrecedes(b.order)
      }

      /// Experiment, then the indexes (none first), then the values.
      private var order: [String] {
        [experiment, from.map { "1" + $0 } ?? "0", to.map { "1" + $0 } ?? "0", fromValue ?? "", toValue ?? ""]
      }
    }

    public func run() throws {
      let idList = try Self.ids(in: InputFile.read(ids, option: "--ids"), path: ids)
      let beforeFile = try Bucket.configuration(before, option: "--before")
      let afterFile = try Bucket.configuration(after, option: "--after")
      // The ids in pieces, so that the decisions held at once stay few whatever the number of ids.
      var counts: [Move: Int] = [:]
      for start in stride(from: 0, to: idList.count, by: Self.piece) {
        let piece = Array(idList[start..<min(start + Self.piece, idList.count)])
        let old = try Bucket.decisions(
          framework, config: beforeFile, option: "--before", path: before, ids: piece, attributes: attributes, flags: false,
          warns: start == 0)
        let new = try Bucket.decisions(
          framework, config: afterFile, option: "--after", path: after, ids: piece, attributes: attributes, flags: false,
          warns: start == 0)
        counts.merge(Self.moves(before: old.lines, after: new.lines, ids: piece), uniquingKeysWith: +)
      }
      if json {
        for (move, count) in counts.sorted(by: { $0.key < $1.key }) {
          let values: [(String, OrderedJSON)] = move.fromValue == nil && move.toValue == nil ? [] : [
            ("fromValue", move.fromValue.map(OrderedJSON.string) ?? .null), ("toValue", move.toValue.map(OrderedJSON.string) ?? .null),
          ]
          let line = OrderedJSON.object(
            [("experiment", .string(move.experiment)), ("from", move.from.map(OrderedJSON.string) ?? .null),
             ("to", move.to.map(OrderedJSON.string) ?? .null)] + values
              + [("kind", .string(move.kind.rawValue)), ("count", .integer(count))])
          print(line.renderedOnOneLine())
        }
      } else {
        print(Self.text(counts, ids: idList.count))
      }
    }

    /// The ids of `data`, one per line; a blank line inside the file is refused, trailing ones are ignored.
    static func ids(in data: Data, path: String) throws -> [String] {
      guard let text = String(data: data, encoding: .utf8) else {
        throw BenchError.invalidFile(option: "--ids", problem: "\(path) is not UTF-8 text: save it as UTF-8, one id per line")
      }
      var lines = IDLines.split(text)
      while lines.last == "" { lines.removeLast() }
      if let blank = lines.firstIndex(of: "") {
        throw BenchError.invalidFile(option: "--ids", problem: "\(path) line \(blank + 1) is blank: give one id per line, without blank lines")
      }
      if let (line, character) = IDLines.firstControlCharacter(in: lines) {
        throw BenchError.invalidFile(
          option: "--ids", problem: "\(path) line \(line) holds the control character \(character), which no id has: save the ids as text, one per line")
      }
      guard !lines.isEmpty else { throw BenchError.invalidFile(option: "--ids", problem: "\(path) holds no id: give one id per line") }
      return lines
    }

    /// How many ids `run` decides at once.
    static let piece = 20_000

    /// The pairs (variation before, variation after) of every row and id,
    /// in one pass over the lines: they come id by id, in the order of `ids`,
    /// with the same rows for every id (a row named twice counts once, by its first line).
    package static func moves(before: [BucketLine], after: [BucketLine], ids: [String]) -> [Move: Int] {
      func rows(_ lines: [BucketLine]) -> (rows: [BucketRow], perID: Int, place: [String: Int]) {
        let rows = lines.compactMap { line -> BucketRow? in
          if case .experiment(let row) = line { row } else { nil }
        }
        let perID = ids.isEmpty ? 0 : rows.count / ids.count
        var place: [String: Int] = [:]
        for (index, row) in rows.prefix(perID).enumerated() where place[row.experiment] == nil { place[row.experiment] = index }
        return (rows, perID, place)
      }
      let old = rows(before), new = rows(after)
      let experiments = Set(old.place.keys).union(new.place.keys).sorted()
      let places = experiments.map { (old.place[$0], new.place[$0]) }
      // By experiment, how many ids take each (from, to) pair.
      var pairs = Array(repeating: [Pair: Int](), count: experiments.count)
      for index in ids.indices {
        for (experiment, (oldPlace, newPlace)) in places.enumerated() {
          let from = oldPlace.map { old.rows[index * old.perID + $0] }
          let to = newPlace.map { new.rows[index * new.perID + $0] }
          let pair = Pair(from: from?.variation, fromValue: from?.value, to: to?.variation, toValue: to?.value)
          pairs[experiment][pair, default: 0] += 1
        }
      }
      var counts: [Move: Int] = [:]
      for (experiment, byPair) in zip(experiments, pairs) {
        for (pair, count) in byPair {
          counts[Move(experiment: experiment, from: pair.from, to: pair.to, fromValue: pair.fromValue, toValue: pair.toValue)] = count
        }
      }
      return counts
    }

    private struct Pair: Hashable {
      let from: String?
      let fromValue: String?
      let to: String?
      let toValue: String?
    }

    /// A table per row: each pair's count, marked when it moves, enters or
    /// leaves; the headline is the ids that change arm, then those that
    /// enter or leave the experiment.
    static func text(_ counts: [Move: Int], ids: Int) -> String {
      let rows = Dictionary(grouping: counts, by: \.key.experiment)
      return rows.keys.sorted().map { experiment in
        let pairs = rows[experiment]!.sorted { $0.key < $1.key }
        func total(_ kind: Move.Kind) -> Int { pairs.filter { $0.key.kind == kind }.reduce(0) { $0 + $1.value } }
        let moved = total(.moves), entered = total(.enters), left = total(.leaves)
        let share = ids == 0 ? 0 : Double(moved) / Double(ids) * 100
        var header = "\(experiment): \(moved) of \(ids) ids move (\(String(format: "%.1f", share))%)"
        if entered > 0 || left > 0 { header += "; \(entered) enter the experiment, \(left) leave it" }
        func label(_ variation: String?, _ value: String?) -> String {
          variation.map { BucketRow.label($0, value: value) } ?? "none"
        }
        let marks: [Move.Kind: String] = [.moves: " (move)", .enters: " (enters)", .leaves: " (leaves)"]
        let lines = pairs.map { pair in
          "  \(label(pair.key.from, pair.key.fromValue)) → \(label(pair.key.to, pair.key.toValue)): \(pair.value)"
            + (marks[pair.key.kind] ?? "")
        }
        return ([header] + lines).joined(separator: "\n")
      }.joined(separator: "\n")
    }
  }
}
