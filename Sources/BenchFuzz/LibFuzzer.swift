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
  enum LibFuzzer {
    static func run(_ target: FuzzTarget, arguments: [String]) -> Never {
      var argc = CInt(arguments.count)
      var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = UnsafeMutablePointer.allocate(capacity: arguments.count + 1)
      for (index, argument) in arguments.enumerated() { argv![index] = strdup(argument) }
      argv![arguments.count] = nil
      let callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
      switch target {
      case .scenario:
        callback = { bytes, count in
          FuzzTarget.scenario.run(Data(bytes: bytes!, count: count))
          return 0
        }
      case .table:
        callback = { bytes, count in
          FuzzTarget.table.run(Data(bytes: bytes!, count: count))
          return 0
        }
      case .optimizely:
        callback = { bytes, count in
          FuzzTarget.optimizely.run(Data(bytes: bytes!, count: count))
          return 0
        }
      case .growthbook:
        callback = { bytes, count in
          FuzzTarget.growthbook.run(Data(bytes: bytes!, count: count))
          return 0
        }
      case .part:
        callback = { bytes, count in
          FuzzTarget.part.run(Data(bytes: bytes!, count: count))
          return 0
        }
      case .attributes:
        callback = { bytes, count in
          FuzzTarget.attributes.run(Data(bytes: bytes!, count: count))
          return 0
        }
      }
      exit(runDriver(&argc, &argv, callback))
    }
  }
#endif
