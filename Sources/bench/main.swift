import BenchCLI

Bench.main()
