import ArgumentParser
import Foundation
import Pipeline
import Sharding
import Simulation

extension Bench {
  /// Writes, and optionally submits, a Slurm job that runs a scenario in shards.
  public struct Slurm: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Run a scenario's shards on a Slurm cluster and merge them.",
      discussion: """
        Writes <job folder>/shards.sbatch, a job array whose task K runs `bench run \
        --shard K/N`, merge.sbatch, which runs `bench merge` on the N parts, and submit.sh, \
        which submits the array and then the merge with --dependency=afterok on it. A \
        shard that fails is requeued by Slurm up to 3 times; the merge waits for every \
        shard. The bench, the job folder and --out must be reachable from every node at \
        the same paths (a shared file system). See docs/cluster.md.
        """
    )

    @OptionGroup var options: ScenarioOptions

    @Option(help: "How many shards, one array task each.")
    var shards: Int

    @Option(
      help: ArgumentHelp(
        "Run the scenario this many times, each with a seed derived from the first (default: as `bench run`)."))
    var replications: Int?

    @Option(help: "Cores per shard (--cpus-per-task), the threads each shard runs.")
    var threads: Int = 1

    @Option(help: "The Slurm partition to run in (default: the cluster's default).")
    var partition: String?

    @Option(help: "The time limit of each shard, as sbatch reads it, e.g. 30:00 or 1-00:00:00.")
    var time: String?

    @Option(help: ArgumentHelp("The folder for the scripts, the parts and the logs (default: slurm/<scenario name>).", valueName: "folder"))
    var jobFolder: String?

    @Option(help: ArgumentHelp("The folder the merge writes <scenario name>/report.md and results.json into.", valueName: "folder"))
    var out: String = "reports"

    @Option(help: ArgumentHelp("The bench executable the nodes run (default: this one).", valueName: "path"))
    var bench: String?

    @Flag(help: "Also submit the job with sbatch.")
    var submit = false

    /// The job's shards run with the same flag.
    @OptionGroup var largeRun: LargeRunFlag

    public init() {}

    public func validate() throws {
      guard RunLimits.shards.contains(shards) else {
        throw ValidationError("--shards must lie between 1 and \(RunLimits.shards.upperBound), not \(shards), e.g. --shards 8.")
      }
      if let replications { try RunLimits.check(replications: replications) }
      try RunLimits.check(threads: threads)
      for (flag, value, example) in [("--partition", partition, "batch"), ("--time", time, "30:00")] {
        if let value, value.isEmpty || value.contains(where: { $0.isWhitespace || $0 == "#" }) {
          throw ValidationError("\(flag) must be one word without spaces, e.g. \(flag) \(example).")
        }
      }
    }

    public func run() async throws {
      let (scenario, warnings, file) = try options.loadFile()
      for warning in warnings { printError("warning: \(warning)") }
      let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      func absolute(_ path: String) -> URL { URL(fileURLWithPath: path, relativeTo: here).standardizedFileURL }
      var runOptions: [String] = []
      if let seed = options.seed { runOptions += ["--seed", String(seed)] }
      if let devices = options.devices { runOptions += ["--devices", String(devices)] }
      // Given whatever the default, so that every shard and the merge count the same replications.
      let replications = replications ?? SimulatedRun.defaultReplications(devices: scenario.devices, days: scenario.days)
      runOptions += ["--replications", String(replications)]
      // The largest shard, checked here rather than on the cluster, where a refusal would come late.
      let shardDevices = (scenario.devices * replications + shards - 1) / shards
      try RunLimits.check(
        SimulationPlan(scenario), devices: shardDevices, replications: 1, threads: threads, allowed: largeRun.allowLargeRun)
      if largeRun.allowLargeRun { runOptions += ["--allow-large-run"] }
      let folder = absolute(jobFolder ?? "slurm/\(scenario.name)")
      // The logs' path goes into `#SBATCH --output=` lines, which no shell quoting reaches: sbatch splits
      // them at spaces, reads % as a file-name pattern, and a line break would end the directive.
      guard folder.path.allSatisfy(SlurmJob.directiveSafe.contains) else { throw BenchError.unsafeJobFolder(path: folder.path) }
      let job = SlurmJob(
        name: scenario.name,
        folder: folder,
        bench: bench.map { absolute($0).path } ?? Self.thisExecutable(),
        out: absolute(out).path, shards: shards, threads: threads, partition: partition, time: time,
        runOptions: runOptions)
      do {
        try job.write(scenarioFile: file)
      } catch {
        throw BenchError.unwritableFolder(option: "--job-folder", path: job.folder.path, reason: error.localizedDescription)
      }
      // Written straight to the file handle, so that these lines come before what sbatch prints.
      func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
      say("Wrote \(job.shardsScript.relativePath), \(job.mergeScript.lastPathComponent) and \(job.submitScript.lastPathComponent)")
      guard submit else {
        say("Submit with: \(ShellWord.quoted(job.submitScript.path))")
        return
      }
      try Self.submit(job)
    }

    /// Runs submit.sh and relays what it says.
    private static func submit(_ job: SlurmJob) throws {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [job.submitScript.path]
      do {
        try process.run()
      } catch {
        throw SubmitError(detail: "cannot run /bin/sh (\(error.localizedDescription))")
      }
      process.waitUntilExit()
      guard process.terminationStatus == 0 else {
        throw SubmitError(detail: "submit.sh exited with status \(process.terminationStatus)")
      }
    }

    /// The running bench, so that the nodes run the very executable that wrote the job.
    private static func thisExecutable() -> String {
      Bundle.main.executableURL?.resolvingSymlinksInPath().path ?? CommandLine.arguments[0]
    }
  }
}

/// `sbatch` refused the job or could not be run.
struct SubmitError: Error, CustomStringConvertible {
  let detail: String

  var description: String {
    "--submit: \(detail): check that sbatch is on the PATH and the cluster is up (sinfo), "
      + "or submit later with the job folder's submit.sh."
  }
}
