import ArgumentParser

/// The flags of the commands that simulate a scenario (`bench run`, `bench
/// compare`): how large a run they may start, and how much they say.
struct RunFlags: ParsableArguments {
  @Flag(help: "Run even when the estimate exceeds an hour or 8 GB of memory.")
  var allowLargeRun = false

  @Flag(help: "Print nothing but errors.")
  var quiet = false
}
