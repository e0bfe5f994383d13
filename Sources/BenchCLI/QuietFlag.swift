import ArgumentParser

/// `--quiet`, for the commands that print progress and a closing line.
struct QuietFlag: ParsableArguments {
  @Flag(help: "Print nothing but errors.")
  var quiet = false
}
