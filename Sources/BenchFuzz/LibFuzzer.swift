#if FUZZING
  import Foundation

  /// libFuzzer's own entry point for a program with its own `main`.
  @_silgen_name("LLVMFuzzerRunDriver")
  private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// Runs libFuzzer on one target; a C callback cannot capture it, so the
  /// target is chosen once, before the driver starts, by the process's own
  /// arguments.
  extension FuzzTarget {
    /// One input from libFuzzer: its bytes, run through the target.
    func feed(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
      run(Data(bytes: bytes!, count: count))
      return 0
    }
  }

  enum LibFuzzer {
    static func run(_ target: FuzzTarget, arguments: [String]) -> Never {
      var argc = CInt(arguments.count)
      var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = UnsafeMutablePointer.allocate(capacity: arguments.count + 1)
      for (index, argument) in arguments.enumerated() { argv![index] = strdup(argument) }
      argv![arguments.count] = nil
      let callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
      switch target {
      case .scenario: callback = { FuzzTarget.scenario.feed($0, $1) }
      case .table: callback = { FuzzTarget.table.feed($0, $1) }
      case .optimizely: callback = { FuzzTarget.optimizely.feed($0, $1) }
      case .growthbook: callback = { FuzzTarget.growthbook.feed($0, $1) }
      case .part: callback = { FuzzTarget.part.feed($0, $1) }
      case .attributes: callback = { FuzzTarget.attributes.feed($0, $1) }
      case .export: callback = { FuzzTarget.export.feed($0, $1) }
      case .platforms: callback = { FuzzTarget.platforms.feed($0, $1) }
      }
      exit(runDriver(&argc, &argv, callback))
    }
  }
#endif
