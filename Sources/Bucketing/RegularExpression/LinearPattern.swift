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
