// SPDX-License-Identifier: Apache-2.0

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
}
