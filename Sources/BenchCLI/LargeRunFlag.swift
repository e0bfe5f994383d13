import ArgumentParser

/// `--allow-large-run`, for the commands that start a simulation (or write a
/// job that starts one) after estimating its time and memory (`RunLimits`).
struct LargeRunFlag: ParsableArguments {
  @Flag(help: "Run even when the estimate exceeds an hour or 8 GB of memory.")
  var allowLargeRun = false
}
