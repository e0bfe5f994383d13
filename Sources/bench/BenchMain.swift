import BenchCLI

/// Runs the `bench` command.
@main
enum BenchMain {
  static func main() async {
    await Bench.main()
  }
}
