// SPDX-License-Identifier: Apache-2.0

extension LinearPattern {
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
}
