// SPDX-License-Identifier: Apache-2.0

/// A regular expression searched in time linear in the text: the pattern is
/// compiled to a Thompson automaton and every state it can be in is followed
/// at once, one character at a time (Thompson, "Regular expression search
/// algorithm", CACM 11(6), 1968), so no pattern can make a search backtrack.
///
/// It reads the part of ICU's syntax whose meaning it reproduces exactly
/// (literals, `.`, classes with ranges, `\d \w \s` and their negations, `^ $
/// \A \Z \z \b \B`, groups, alternation, greedy and lazy `* + ? {n,m}`) and
/// answers as `NSRegularExpression` would, line terminators and ASCII case
/// folding included. Anything else (back references, look-around, Unicode
/// properties, inline flags, nested or combined classes, a quantifier over
/// what can match nothing, where ICU departs from the theory) leaves the pattern to
/// ICU under a budget (`RegularExpressionSearch`), as does a text outside
/// ASCII where the answer depends on ICU's Unicode tables.
struct LinearPattern: Sendable {
  /// The most instructions a compiled pattern may have; a longer one (a large
  /// bounded repetition) goes to ICU, since the search costs this many steps a character.
  static let largestProgram = 4_000
  /// The deepest nesting of groups read; deeper is left to ICU.
  static let deepestGroup = 64

  private let program: [Instruction]
  /// Whether the answer relies on the ASCII meaning of `\d \w \s \b` or of case folding.
  private let asciiOnly: Bool

  /// The pattern compiled, or nil when it uses what this matcher does not reproduce.
  init?(_ pattern: String, caseInsensitive: Bool) {
    var parser = Parser(scalars: Array(pattern.unicodeScalars), caseInsensitive: caseInsensitive)
    guard let node = parser.parseWhole() else { return nil }
    var compiler = Compiler()
    guard compiler.emit(node, depth: 0) else { return nil }
    compiler.program.append(.match)
    guard compiler.program.count <= Self.largestProgram else { return nil }
    program = compiler.program
    asciiOnly = parser.usesASCIIClasses || caseInsensitive
  }

  /// Whether the pattern matches somewhere in `text`; nil when the text is
  /// outside ASCII and the answer depends on ICU's Unicode tables.
  func search(_ text: String) -> Bool? {
    let scalars = Array(text.unicodeScalars)
    if asciiOnly, !scalars.allSatisfy(\.isASCII) { return nil }
    var current = StateSet(capacity: program.count), next = StateSet(capacity: program.count)
    var stack: [Int] = []
    for position in 0...scalars.count {
      if follow(0, at: position, in: scalars, into: &current, stack: &stack) { return true }
      guard position < scalars.count else { break }
      let scalar = scalars[position]
      next.removeAll()
      for state in current.members {
        if case .scalar(let test) = program[state], test.accepts(scalar),
          follow(state + 1, at: position + 1, in: scalars, into: &next, stack: &stack)
        {
          return true
        }
      }
      swap(&current, &next)
    }
    return false
  }

  /// Adds `state` and every state reached from it without reading a
  /// character at `position`; true when the match state is among them.
  private func follow(_ state: Int, at position: Int, in text: [Unicode.Scalar], into set: inout StateSet, stack: inout [Int]) -> Bool {
    stack.append(state)
    while let state = stack.popLast() {
      guard set.insert(state) else { continue }
      switch program[state] {
      case .match: stack.removeAll(); return true
      case .jump(let target): stack.append(target)
      case .split(let first, let second):
        stack.append(second)
        stack.append(first)
      case .assertion(let assertion): if assertion.holds(at: position, in: text) { stack.append(state + 1) }
      case .scalar: break
      }
    }
    return false
  }
}

extension LinearPattern {
  enum Instruction: Sendable {
    case scalar(ScalarTest)
    case assertion(Assertion)
    case split(Int, Int)
    case jump(Int)
    case match
  }

  /// What one character must be.
  enum ScalarTest: Sendable {
    case literal(UInt32)
    /// An ASCII letter in either case.
    case letter(UInt32)
    /// ICU's `.`: anything but a line terminator.
    case anyButLineTerminator
    /// One of the ranges, or none of them when `negated`.
    case set([ClosedRange<UInt32>], negated: Bool)

    func accepts(_ scalar: Unicode.Scalar) -> Bool {
      let value = scalar.value
      switch self {
      case .literal(let expected): return value == expected
      case .letter(let lower): return value | 0x20 == lower
      case .anyButLineTerminator: return !Assertion.isLineTerminator(value)
      case .set(let ranges, let negated): return ranges.contains { $0.contains(value) } != negated
      }
    }
  }

  /// What a position must be, read without consuming a character.
  enum Assertion: Sendable {
    /// `^`, `\A`.
    case start
    /// `$`, `\Z`: the end, or before a line terminator that ends the text.
    case end
    /// `\z`.
    case veryEnd
    case wordBoundary
    case notWordBoundary

    /// ICU's line terminators: \n, \v, \f, \r, U+0085, U+2028, U+2029.
    static func isLineTerminator(_ value: UInt32) -> Bool {
      (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
    }

    /// `\w` in ASCII (a pattern with `\b` reads no other text).
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
      let value = scalar.value
      return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x5F
    }

    func holds(at position: Int, in text: [Unicode.Scalar]) -> Bool {
      let count = text.count
      switch self {
      case .start: return position == 0
      case .veryEnd: return position == count
      case .end:
        if position == count { return true }
        if position == count - 1 {
          // Before the last terminator, but not between the \r and \n of a final \r\n.
          let last = text[position].value
          return Self.isLineTerminator(last) && !(last == 0x0A && position > 0 && text[position - 1].value == 0x0D)
        }
        return position == count - 2 && text[position].value == 0x0D && text[position + 1].value == 0x0A
      case .wordBoundary, .notWordBoundary:
        let before = position > 0 && Self.isWord(text[position - 1])
        let after = position < count && Self.isWord(text[position])
        return (before != after) == (self == .wordBoundary)
      }
    }
  }

  indirect enum Node {
    case empty
    case scalar(ScalarTest)
    case assertion(Assertion)
    case sequence([Node])
    case alternation([Node])
    case repetition(Node, minimum: Int, maximum: Int?)

    /// Whether the node can match without reading a character.
    var isNullable: Bool {
      switch self {
      case .empty, .assertion: return true
      case .scalar: return false
      case .sequence(let items): return items.allSatisfy(\.isNullable)
      case .alternation(let branches): return branches.contains(where: \.isNullable)
      case .repetition(let body, let minimum, _): return minimum == 0 || body.isNullable
      }
    }
  }
}

extension LinearPattern {
  /// Reads ICU's syntax, returning nil at the first construct it does not reproduce.
  struct Parser {
    let scalars: [Unicode.Scalar]
    let caseInsensitive: Bool
    var index = 0
    var depth = 0
    var usesASCIIClasses = false

    init(scalars: [Unicode.Scalar], caseInsensitive: Bool) {
      self.scalars = scalars
      self.caseInsensitive = caseInsensitive
    }

    mutating func parseWhole() -> Node? {
      if caseInsensitive, !scalars.allSatisfy(\.isASCII) { return nil }
      guard let node = parseAlternation(), index == scalars.count else { return nil }
      return node
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func parseAlternation() -> Node? {
      var branches: [Node] = []
      while true {
        guard let branch = parseSequence() else { return nil }
        branches.append(branch)
        guard peek == "|" else { break }
        index += 1
      }
      return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() -> Node? {
      var items: [Node] = []
      while let scalar = peek, scalar != "|", scalar != ")" {
        guard let atom = parseAtom() else { return nil }
        guard let item = parseQuantifiers(on: atom) else { return nil }
        items.append(item)
      }
      return items.isEmpty ? .empty : .sequence(items)
    }

    private mutating func parseAtom() -> Node? {
      guard let scalar = peek else { return nil }
      index += 1
      switch scalar {
      case "(":
        // Only plain and non-capturing groups; (?=, (?<, (?i) and the rest go to ICU.
        if peek == "?" {
          guard index + 1 < scalars.count, scalars[index + 1] == ":" else { return nil }
          index += 2
        }
        guard depth < LinearPattern.deepestGroup else { return nil }
        depth += 1
        defer { depth -= 1 }
        guard let inner = parseAlternation(), peek == ")" else { return nil }
        index += 1
        return inner
      case "[": return parseClass()
      case ".": return .scalar(.anyButLineTerminator)
      case "^": return .assertion(.start)
      case "$": return .assertion(.end)
      case "\\": return parseEscape()
      case "*", "+", "?", "{", "}", "]": return nil
      default: return literal(scalar.value)
      }
    }

    private func literal(_ value: UInt32) -> Node {
      if caseInsensitive, let lower = Self.asciiLetterLower(value) { return .scalar(.letter(lower)) }
      return .scalar(.literal(value))
    }

    private static func asciiLetterLower(_ value: UInt32) -> UInt32? {
      (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) ? value | 0x20 : nil
    }

    private mutating func parseEscape() -> Node? {
      guard let scalar = peek else { return nil }
      index += 1
      switch scalar {
      case "A": return .assertion(.start)
      case "Z": return .assertion(.end)
      case "z": return .assertion(.veryEnd)
      case "b":
        usesASCIIClasses = true
        return .assertion(.wordBoundary)
      case "B":
        usesASCIIClasses = true
        return .assertion(.notWordBoundary)
      default:
        if let (ranges, negated) = classEscape(scalar) { return .scalar(.set(ranges, negated: negated)) }
        guard let value = escapedScalar(scalar) else { return nil }
        return literal(value)
      }
    }

    /// `\d \w \s` and their negations, in their ASCII meaning.
    private mutating func classEscape(_ scalar: Unicode.Scalar) -> ([ClosedRange<UInt32>], Bool)? {
      let ranges: [ClosedRange<UInt32>]
      switch scalar {
      case "d", "D": ranges = [0x30...0x39]
      case "w", "W": ranges = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
      case "s", "S": ranges = [0x09...0x0D, 0x20...0x20]
      default: return nil
      }
      usesASCIIClasses = true
      return (ranges, scalar.properties.isUppercase)
    }

    /// The character an escape stands for: `\n \t \r \f`, `\xhh`, `\uhhhh` or escaped ASCII punctuation.
    private mutating func escapedScalar(_ scalar: Unicode.Scalar) -> UInt32? {
      switch scalar {
      case "n": return 0x0A
      case "t": return 0x09
      case "r": return 0x0D
      case "f": return 0x0C
      case "x": return hexDigits(2)
      case "u": return hexDigits(4)
      default:
        guard scalar.isASCII, scalar.value > 0x20, scalar.value < 0x7F, !scalar.properties.isAlphabetic,
          !("0"..."9").contains(scalar)
        else { return nil }
        return scalar.value
      }
    }

    private mutating func hexDigits(_ count: Int) -> UInt32? {
      guard index + count <= scalars.count else { return nil }
      var value: UInt32 = 0
      for scalar in scalars[index..<index + count] {
        guard let digit = Character(scalar).hexDigitValue else { return nil }
        value = value * 16 + UInt32(digit)
      }
      index += count
      return Unicode.Scalar(value) == nil ? nil : value
    }

    /// A class of single characters and ranges; nested classes, set
    /// operations, POSIX names and a `-` that is not between two ends go to ICU.
    private mutating func parseClass() -> Node? {
      var negated = false
      if peek == "^" {
        negated = true
        index += 1
      }
      // ICU's order of case closing and complementing is not reproduced.
      guard !(negated && caseInsensitive), peek != "]" else { return nil }
      var ranges: [ClosedRange<UInt32>] = []
      while let scalar = peek, scalar != "]" {
        guard let low = classMember() else { return nil }
        if peek == "-" {
          index += 1
          guard peek != "]", let high = classMember(), case .single(let first) = low, case .single(let last) = high,
            first <= last
          else { return nil }
          ranges.append(first...last)
        } else {
          switch low {
          case .single(let value): ranges.append(value...value)
          case .ranges(let members): ranges += members
          }
        }
      }
      guard peek == "]" else { return nil }
      index += 1
      if caseInsensitive {
        ranges += ranges.flatMap { range in
          [(0x41...0x5A, UInt32(0x20)), (0x61...0x7A, UInt32(0))].compactMap { letters, shift -> ClosedRange<UInt32>? in
            let low = max(range.lowerBound, UInt32(letters.lowerBound)), high = min(range.upperBound, UInt32(letters.upperBound))
            guard low <= high else { return nil }
            return shift == 0 ? (low - 0x20)...(high - 0x20) : (low + shift)...(high + shift)
          }
        }
      }
      return .scalar(.set(ranges, negated: negated))
    }

    private enum ClassMember {
      case single(UInt32)
      case ranges([ClosedRange<UInt32>])
    }

    private mutating func classMember() -> ClassMember? {
      guard let scalar = peek else { return nil }
      index += 1
      switch scalar {
      case "[", "&", "-", "^", "$", "{", "}", " ", "#": return nil
      case "\\":
        guard let escaped = peek else { return nil }
        index += 1
        if let (ranges, negated) = classEscape(escaped) {
          return negated ? nil : .ranges(ranges)
        }
        return escapedScalar(escaped).map(ClassMember.single)
      default: return .single(scalar.value)
      }
    }

    /// `*`, `+`, `?` and `{n}`, `{n,}`, `{n,m}` after an atom, each lazy or
    /// greedy (the same for a search); a possessive one or a second in a row goes to ICU.
    private mutating func parseQuantifiers(on atom: Node) -> Node? {
      guard let scalar = peek else { return atom }
      let bounds: (Int, Int?)
      switch scalar {
      case "*": bounds = (0, nil)
      case "+": bounds = (1, nil)
      case "?": bounds = (0, 1)
      case "{":
        guard let interval = parseInterval() else { return nil }
        bounds = interval
      default: return atom
      }
      if scalar != "{" { index += 1 }
      // ICU's loops over what can match nothing (`(a*)+`, `(?:$)?`) do not always answer as the theory does.
      guard !atom.isNullable else { return nil }
      if peek == "?" { index += 1 }
      if let next = peek, ["*", "+", "?", "{"].contains(next) { return nil }
      return .repetition(atom, minimum: bounds.0, maximum: bounds.1)
    }

    private mutating func parseInterval() -> (Int, Int?)? {
      index += 1
      guard let minimum = number() else { return nil }
      var maximum: Int? = minimum
      if peek == "," {
        index += 1
        maximum = peek == "}" ? nil : number()
        if maximum == nil && peek != "}" { return nil }
      }
      guard peek == "}" else { return nil }
      index += 1
      if let maximum, maximum < minimum { return nil }
      return (minimum, maximum)
    }

    private mutating func number() -> Int? {
      var value = 0, digits = 0
      while let scalar = peek, let digit = Character(scalar).wholeNumberValue, scalar.isASCII {
        value = value * 10 + digit
        digits += 1
        index += 1
        if value > LinearPattern.largestProgram { return nil }
      }
      return digits > 0 ? value : nil
    }
  }

  /// Writes a node as instructions, giving up past `largestProgram`.
  struct Compiler {
    var program: [Instruction] = []

    mutating func emit(_ node: Node, depth: Int) -> Bool {
      guard program.count <= LinearPattern.largestProgram, depth <= 2 * LinearPattern.deepestGroup + 2 else { return false }
      switch node {
      case .empty: return true
      case .scalar(let test): program.append(.scalar(test))
      case .assertion(let assertion): program.append(.assertion(assertion))
      case .sequence(let items):
        for item in items where !emit(item, depth: depth + 1) { return false }
      case .alternation(let branches):
        // split b0, L1; L1: split b1, L2; ... each branch jumps to the end.
        var jumps: [Int] = []
        for (offset, branch) in branches.enumerated() {
          let split = program.count
          let isLast = offset == branches.count - 1
          if !isLast { program.append(.split(split + 1, -1)) }
          guard emit(branch, depth: depth + 1) else { return false }
          if !isLast {
            jumps.append(program.count)
            program.append(.jump(-1))
            program[split] = .split(split + 1, program.count)
          }
        }
        for jump in jumps { program[jump] = .jump(program.count) }
      case .repetition(let body, let minimum, let maximum):
        for _ in 0..<minimum where !emit(body, depth: depth + 1) { return false }
        if let maximum {
          // Each optional copy: split into the body or past all of them.
          var splits: [Int] = []
          for _ in minimum..<maximum {
            splits.append(program.count)
            program.append(.split(program.count + 1, -1))
            guard emit(body, depth: depth + 1) else { return false }
          }
          for split in splits { program[split] = .split(split + 1, program.count) }
        } else {
          let loop = program.count
          program.append(.split(loop + 1, -1))
          guard emit(body, depth: depth + 1) else { return false }
          program.append(.jump(loop))
          program[loop] = .split(loop + 1, program.count)
        }
      }
      return program.count <= LinearPattern.largestProgram
    }
  }

  /// The states of the automaton at one position, in the order they were
  /// reached, with a constant-time test of membership (Briggs and Torczon,
  /// "An efficient representation for sparse sets", LOPLAS 2(1), 1993).
  struct StateSet {
    private var dense: [Int]
    private var sparse: [Int]
    private var count = 0

    init(capacity: Int) {
      dense = [Int](repeating: 0, count: capacity)
      sparse = [Int](repeating: 0, count: capacity)
    }

    var members: ArraySlice<Int> { dense[0..<count] }

    /// Inserts `state`; false when it was already in.
    mutating func insert(_ state: Int) -> Bool {
      let slot = sparse[state]
      if slot < count && dense[slot] == state { return false }
      sparse[state] = count
      dense[count] = state
      count += 1
      return true
    }

    mutating func removeAll() { count = 0 }
  }
}
