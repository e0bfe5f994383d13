import ArgumentParser

/// `--html`, for the commands that write a report folder.
struct HTMLFlag: ParsableArguments {
  @Flag(help: "Also write report.html: the report in one self-contained file, charts inline.")
  var html = false
}
