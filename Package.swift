// swift-tools-version:6.0
//
// Lab Bench: try a plan for changing running A/B experiments on a simulated
// population before it ships. GPL-3.0-or-later, because it links GNU GSL;
// the libraries an app links (Lab, Bucketing, Enrollment, LabTestKit) link
// nothing GPL and are Apache-2.0, with a LICENSE in their folders.

import Foundation
import PackageDescription

let package = Package(
  name: "lab-bench",
  products: [
    .library(name: "Lab", targets: ["Lab"]),
    .library(name: "Bucketing", targets: ["Bucketing"]),
    .library(name: "Enrollment", targets: ["Enrollment"]),
    // Test doubles for an app's own tests of code that uses Lab.
    .library(name: "LabTestKit", targets: ["LabTestKit"]),
    .library(name: "Statistics", targets: ["Statistics"]),
    // A plan run and its expectations checked, for an app's own tests of its
    // release plans. GPL-3.0-or-later like the bench: it links GNU GSL, which
    // a test target may, and an app it ships may not.
    .library(name: "Pipeline", targets: ["Pipeline"]),
    .executable(name: "bench", targets: ["bench"]),
    .executable(name: "bench-fuzz", targets: ["BenchFuzz"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
  ],
  targets: [
    // MARK: - Public API

    // The experiments framework itself: knows nothing of simulation or files.
    // Apache-2.0 (Sources/Lab/LICENSE), so that apps can ship it.
    .target(name: "Lab", exclude: ["LICENSE"]),

    // Hash-bucketed services as their SDKs decide (Optimizely, GrowthBook):
    // usable by an app, knows nothing of simulation. Apache-2.0.
    .target(name: "Bucketing", dependencies: ["JSONDocument", "Digests"], exclude: ["LICENSE"]),

    // JSON read strictly, with paths and lines in its errors and integers kept
    // apart from other numbers: scenarios and vendors' files. Apache-2.0.
    .target(name: "JSONDocument", exclude: ["LICENSE"]),

    // The message digests vendors' SDKs bucket with (MD5, SHA-1, SHA-256) and
    // part files are checked with. Apache-2.0.
    .target(name: "Digests", exclude: ["LICENSE"]),

    // When a device really enters a test and what it sees meanwhile: the
    // Apptimize wrapper's check and run, KOMA's remote values, devtodev's
    // enrollment handshake. Usable by an app; knows nothing of simulation. Apache-2.0.
    .target(name: "Enrollment", dependencies: ["Lab"], exclude: ["LICENSE"]),

    // Significance tests on counts, means and variances: knows nothing of experiments.
    .target(name: "Statistics", dependencies: ["_CGSL"]),

    // The scenario file: decoding, validation with JSON paths, and the plan it describes.
    .target(name: "ScenarioFormat", dependencies: ["Lab", "Enrollment", "JSONDocument"]),

    // A hash-bucketed platform as one plug-in each (its dashboard written as the
    // vendor's file, its contexts, its decisions, what `bench bucket` prints),
    // and the registry of them: what the simulation and the commands know of a vendor.
    .target(name: "Platforms", dependencies: ["Bucketing", "JSONDocument", "ScenarioFormat", "Results"]),

    // What a run found, as results.json: the model and its JSON, filled by the
    // simulation or from an events table, then by the analysis.
    .target(name: "Results"),

    // Drives virtual devices through a scenario by Lab's rules, counts what they
    // saw, and turns the counts into the results model.
    .target(
      name: "Simulation",
      dependencies: ["Lab", "Bucketing", "Platforms", "Enrollment", "ScenarioFormat", "Results", "JSONDocument", "Tallies"]),

    // Exact sums, moments and histograms of amounts: the counting kernels the
    // simulation and the reader of real exports both tally with.
    .target(name: "Tallies"),

    // A run cut into shards for a cluster: the part files and their merge.
    .target(name: "Sharding", dependencies: ["ScenarioFormat", "Platforms", "Simulation", "Digests"]),

    // Files and report folders written whole or not at all.
    .target(name: "AtomicOutput", dependencies: ["_CFolderSwap"]),

    // Turns counts into verdicts with the statistics module.
    .target(name: "Analysis", dependencies: ["Results", "Statistics", "ScenarioFormat"]),

    // The analysis of an events table: the Lab table a run exports, and real exports.
    .target(name: "AnalyticsTable", dependencies: ["Lab", "Results", "Tallies", "ScenarioFormat"]),

    // The team's world fitted from its own export: installs, adoption, activity and sessions,
    // written as a scenario that `bench` runs. Knows nothing of simulation.
    .target(name: "WorldFit", dependencies: ["AnalyticsTable", "ScenarioFormat", "Results", "Statistics"]),

    // The Markdown report and its SVG charts: knows nothing of simulation.
    .target(name: "Report", dependencies: ["Results", "ScenarioFormat", "Lab", "Digests", "Expectations"]),

    // A plan's expectations checked against its results: `bench test` and an app's own tests.
    .target(name: "Expectations", dependencies: ["Lab", "Results", "ScenarioFormat"]),

    // Scenario, run, analysis, expectations and the report model, in the one order every command runs them.
    .target(name: "Pipeline", dependencies: ["Analysis", "Results", "ScenarioFormat", "Simulation", "Platforms", "Expectations", "Report"]),

    // The workload `bench perf` measures, and the plain loop it is measured against.
    .target(name: "Benchmark", dependencies: ["Lab", "ScenarioFormat", "Simulation"]),

    // The `bench` commands, as a library so that tests can drive them.
    .target(
      name: "BenchCLI",
      dependencies: [
        "Lab",
        "ScenarioFormat",
        "Simulation",
        "Results",
        "Analysis",
        "Report",
        "AnalyticsTable",
        "JSONDocument",
        "Bucketing",
        "Platforms",
        "Sharding",
        "AtomicOutput",
        "Expectations",
        "Pipeline",
        "Benchmark",
        "WorldFit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    .executableTarget(name: "bench", dependencies: ["BenchCLI", "_CStandardOutput"]),

    // The fuzz targets for the scenario and table readers: libFuzzer under
    // `make fuzz`, a replay of saved inputs otherwise.
    .executableTarget(
      name: "BenchFuzz",
      dependencies: [
        "ScenarioFormat", "Simulation", "Results", "AnalyticsTable", "Report", "Bucketing", "Platforms", "Sharding", "Digests",
        "Pipeline", "BenchCLI",
      ]),

    // MARK: - Implementation details

    // GNU GSL, found through pkg-config.
    .systemLibrary(
      name: "_CGSL",
      pkgConfig: "gsl",
      providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]
    ),

    // The atomic exchange of two folders, which Swift's Glibc module does not expose.
    .target(name: "_CFolderSwap"),

    // Whether standard output lost a write, which Swift 6 cannot ask of the C library's `stdout` safely.
    .target(name: "_CStandardOutput"),

    // Test doubles for code that uses Lab: seeded randomness and recording delegates.
    // Apache-2.0 (Sources/LabTestKit/LICENSE), like Lab.
    .target(name: "LabTestKit", dependencies: ["Lab", "Enrollment"], exclude: ["LICENSE"]),

    // MARK: - Unit test bundles

    .testTarget(name: "LabTests", dependencies: ["Lab", "LabTestKit"]),
    .testTarget(name: "BucketingTests", dependencies: ["Bucketing", "JSONDocument"], resources: [.copy("Fixtures")]),
    .testTarget(name: "EnrollmentTests", dependencies: ["Enrollment", "Lab", "LabTestKit"]),
    .testTarget(
      name: "StatisticsTests",
      dependencies: ["Statistics"],
      resources: [.copy("Fixtures")]
    ),
    .testTarget(name: "ScenarioFormatTests", dependencies: ["ScenarioFormat", "Platforms", "Lab"]),
    .testTarget(name: "DigestsTests", dependencies: ["Digests"], resources: [.copy("Fixtures")]),
    .testTarget(
      name: "SimulationTests",
      dependencies: ["Simulation", "Tallies", "Platforms", "Results", "ScenarioFormat", "Lab", "LabTestKit", "Enrollment", "Analysis"]),
    .testTarget(
      name: "ShardingTests", dependencies: ["Sharding", "Simulation", "Platforms", "ScenarioFormat", "Digests"]),
    .testTarget(
      name: "AnalysisTests", dependencies: ["Analysis", "Results", "Simulation", "Tallies", "Platforms", "ScenarioFormat", "Statistics"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "AnalyticsTableTests",
      // CSV.swift is the reference the table writer's bytes are checked against.
      dependencies: [
        "AnalyticsTable", "Analysis", "Results", "Simulation", "Tallies", "Platforms", "ScenarioFormat", "Statistics",
        .product(name: "CSV", package: "CSV.swift"),
      ]
    ),
    .testTarget(name: "ExpectationsTests", dependencies: ["Expectations", "Results", "ScenarioFormat", "Platforms", "Lab"]),
    .testTarget(
      name: "BenchCLITests",
      dependencies: [
        "BenchCLI", "Simulation", "Platforms", "Bucketing", "Results", "ScenarioFormat", "Report", "Analysis", "AnalyticsTable",
        "Sharding", "AtomicOutput", "LabTestKit", "JSONDocument", "Digests", "Expectations", "Benchmark", "WorldFit",
      ],
      exclude: ["Golden"]),
  ]
)

// The C targets, implementation details named with an underscore, take no Swift settings.
let cTargets: Set<String> = ["_CGSL", "_CFolderSwap", "_CStandardOutput"]

// No unsafe flags by default: an app depending on a product by version would refuse them. The
// test suite runs millions of simulated launches, so `make test` sets LAB_BENCH_OPTIMIZED_DEBUG,
// which optimises the debug build's modules that the tests and the README's `swift run bench`
// commands run in loops (keeping its testability and checked scratch memory), but not its test
// bundles nor the modules that only read options, read exports, assemble the pipeline or write the
// report: optimising those cost the build more time than it saved (docs/performance.md, "CI's
// time, third step"). The modules are optimised whole, as a release build does, with one object per
// source file as a debug build links them (`-num-threads`): against a file at a time, the clean
// build with the test bundles took 177 s rather than 191 s and the unit tests 79 s rather than
// 103 s ("CI's time, second step").
let optimizedDebug = ProcessInfo.processInfo.environment["LAB_BENCH_OPTIMIZED_DEBUG"] == "1"
/// The modules whose optimisation saves the unit tests and the README's commands more time than it
/// costs the build: the device loop's, the vendors' SDK ports, the statistics', the analysis' and
/// the JSON reader's. Not the scenario's and the results' models, which are read and written once a
/// run: optimising them cost the build 25 s of CPU and saved the tests 6 ("CI's time, sixth step"). Nor
/// the world fit's: its tests spend their time reading exports, not searching.
let modulesOptimizedForTheTests: Set<String> = [
  "Lab", "Enrollment", "Digests", "Bucketing", "JSONDocument", "Platforms", "Simulation", "Tallies", "Statistics",
  "Analysis", "Sharding",
]
let wholeModuleDebugFlags = [
  "-O", "-wmo", "-num-threads", String(max(ProcessInfo.processInfo.activeProcessorCount, 1)),
  // SwiftPM asks a debug build for batches of files, which a whole-module build ignores with a warning.
  "-disable-batch-mode",
]

// `make test` and `make fuzz` also set LAB_BENCH_FUZZING, so that one release build serves the
// fuzzers, the README's `swift run -c release` commands and the scratch check: its modules that
// read or render outside input (the vendors' files and SDK ports included) carry libFuzzer's
// coverage, which guides the fuzzer through them, and `bench-fuzz` drives libFuzzer. The device
// loop, the statistics, the analysis and `bench perf`'s loops (Benchmark) stay uninstrumented, at
// full speed: a trap in them still fails a fuzz run. Coverage is release-only because a debug
// executable's `main` is renamed, which would let libFuzzer's own `main` in.
let fuzzing = ProcessInfo.processInfo.environment["LAB_BENCH_FUZZING"] == "1"
let readersOfOutsideInput: Set<String> = [
  "JSONDocument", "ScenarioFormat", "AnalyticsTable", "Bucketing", "Platforms", "Sharding", "Results", "Report",
  "Expectations", "BenchFuzz",
]
/// The modules the fuzzing build leaves unoptimised (below).
let unoptimizedWhenFuzzing: Set<String> = ["BenchCLI", "Report", "ScenarioFormat", "WorldFit"]
precondition(
  modulesOptimizedForTheTests.isSubset(of: package.targets.map(\.name)),
  "modulesOptimizedForTheTests names a target the package does not have: it would go unoptimised")
precondition(
  readersOfOutsideInput.isSubset(of: package.targets.map(\.name)),
  "readersOfOutsideInput names a target the package does not have: it would go uninstrumented")
precondition(
  unoptimizedWhenFuzzing.isSubset(of: package.targets.map(\.name)),
  "unoptimizedWhenFuzzing names a target the package does not have: it would stay optimised")

for target in package.targets where !cTargets.contains(target.name) {
  target.swiftSettings = (target.swiftSettings ?? []) + [
    .enableUpcomingFeature("ExistentialAny"),
  ]
  // The device loop's scratch memory checks its bounds in debug builds, so the tests run every
  // scenario with every access checked (Sources/Simulation/Device/ScratchArray.swift).
  if target.name == "Simulation" {
    target.swiftSettings! += [.define("CHECKED_SCRATCH", .when(configuration: .debug))]
    // A part lends the tables and itself to others to read as `borrowing @_addressable`: checked
    // read-only, and passed by address rather than copied at every call (DeviceSimulator).
    target.swiftSettings! += [.enableExperimentalFeature("AddressableParameters")]
  }
  if optimizedDebug && modulesOptimizedForTheTests.contains(target.name) {
    target.swiftSettings! += [.unsafeFlags(wholeModuleDebugFlags, .when(configuration: .debug))]
  }
  // The commands tell a user of a plain debug build that the release build runs a plan faster
  // (RunLimits.adviseOnTheBuild); `make test`'s debug build runs the loop optimised and says nothing.
  if optimizedDebug && target.name == "BenchCLI" {
    target.swiftSettings! += [.define("LAB_BENCH_OPTIMIZED_DEBUG", .when(configuration: .debug))]
  }
  if fuzzing && readersOfOutsideInput.contains(target.name) {
    target.swiftSettings! += [.unsafeFlags(["-sanitize=fuzzer"], .when(configuration: .release))]
    // Every program that links an instrumented module links libFuzzer's runtime (lld: gold
    // cannot link the coverage sections).
    target.linkerSettings = (target.linkerSettings ?? []) + [
      .unsafeFlags(["-sanitize=fuzzer", "-use-ld=lld"], .when(configuration: .release))
    ]
  }
  // The commands themselves (option parsing, output, the steps of a run), the report's writers,
  // the scenario's reader (read once a run) and the world fit take no time the fuzzing build's
  // users measure: `bench perf`'s loops are Simulation's and Benchmark's. Left unoptimised,
  // BenchCLI builds in 3 s of CPU rather than 14, Report in 3 rather than 17, ScenarioFormat in 6
  // rather than 31 and WorldFit in 2 rather than 7 (docs/performance.md, "CI's time, seventh step").
  if fuzzing && unoptimizedWhenFuzzing.contains(target.name) {
    target.swiftSettings! += [.unsafeFlags(["-Onone"], .when(configuration: .release))]
  }
  if fuzzing && target.name == "BenchFuzz" {
    target.swiftSettings! += [.define("FUZZING", .when(configuration: .release))]
  }
}
