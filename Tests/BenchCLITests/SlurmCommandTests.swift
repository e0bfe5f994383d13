import Foundation
import Testing

@Suite struct SlurmCommandTests {
  @Test func itWritesAnArrayJobAMergeAfterItAndTheirSubmission() throws {
    let folder = try temporaryFolder()
    let job = folder.appendingPathComponent("job")
    let result = try BenchProcess.run([
      "slurm", committedScenario("upgrade"), "--shards", "8", "--devices", "5000", "--seed", "4", "--replications", "3",
      "--threads", "2", "--partition", "batch", "--time", "30:00", "--job-folder", job.path, "--bench", "/opt/lab bench/bench",
      "--out", folder.appendingPathComponent("reports").path,
    ])
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(result.standardOutput == """
      Wrote \(job.path)/shards.sbatch, merge.sbatch and submit.sh
      Submit with: \(job.path)/submit.sh

      """)
    let shards = try String(contentsOf: job.appendingPathComponent("shards.sbatch"), encoding: .utf8)
    #expect(shards == """
      #!/bin/bash
      # Written by `bench slurm`: simulates shard K of 8 of upgrade in array task K.
      #SBATCH --job-name=bench-upgrade-shards
      #SBATCH --array=0-7
      #SBATCH --requeue
      #SBATCH --cpus-per-task=2
      #SBATCH --output=\(job.path)/logs/shard-%a.out
      #SBATCH --open-mode=append
      #SBATCH --partition=batch
      #SBATCH --time=30:00
      set -u
      # A part is written whole or not at all, so a shard cut short leaves none
      # behind; a failed shard is put back in the queue for another try.
      '/opt/lab bench/bench' run \(job.path)/scenario.json --shard "${SLURM_ARRAY_TASK_ID}/8" --out \(job.path)/parts \
      --seed 4 --devices 5000 --replications 3 --threads "${SLURM_CPUS_PER_TASK:-2}" --quiet && exit 0
      status=$?
      if [ "${SLURM_RESTART_COUNT:-0}" -lt 3 ]; then
        echo "shard ${SLURM_ARRAY_TASK_ID} failed with status $status: requeued" >&2
        scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
      fi
      exit "$status"

      """)
    let merge = try String(contentsOf: job.appendingPathComponent("merge.sbatch"), encoding: .utf8)
    #expect(merge.contains("""
      exec '/opt/lab bench/bench' merge \(job.path)/parts/upgrade.shard-{0..7}-of-8.part --out \(folder.path)/reports
      """))
    let submit = try String(contentsOf: job.appendingPathComponent("submit.sh"), encoding: .utf8)
    #expect(submit.contains("shards=$(sbatch --parsable \(job.path)/shards.sbatch)"))
    #expect(submit.contains("--dependency=afterok:\"$shards\" --kill-on-invalid-dep=yes \(job.path)/merge.sbatch"))
    #expect(try Data(contentsOf: job.appendingPathComponent("scenario.json")) == Data(contentsOf: URL(fileURLWithPath: committedScenario("upgrade"))))
  }

  /// The scripts do what Slurm would have them do: run by hand with each
  /// array index, then the merge, they write the one-machine report.
  @Test func theScriptsRunByHandGiveTheOneMachineReport() throws {
    let folder = try temporaryFolder()
    let job = folder.appendingPathComponent("job")
    let options = ["--devices", "3000", "--seed", "11", "--replications", "2"]
    let written = try BenchProcess.run(
      ["slurm", committedScenario("token-range-change"), "--shards", "3", "--job-folder", job.path, "--out",
       folder.appendingPathComponent("merged").path] + options)
    #expect(written.status == 0)
    let bash = URL(fileURLWithPath: "/bin/bash")
    for index in 0..<3 {
      let shard = try BenchProcess.run(
        executable: bash, [job.appendingPathComponent("shards.sbatch").path],
        environment: ["SLURM_ARRAY_TASK_ID": "\(index)", "PATH": "/usr/bin:/bin"])
      #expect(shard.status == 0, "\(shard.standardError)")
    }
    let merge = try BenchProcess.run(executable: bash, [job.appendingPathComponent("merge.sbatch").path])
    #expect(merge.status == 0, "\(merge.standardError)")
    let whole = try BenchProcess.run(
      [committedScenario("token-range-change"), "--out", folder.appendingPathComponent("whole").path, "--quiet"] + options)
    #expect(whole.status == 0)
    for file in ["report.md", "results.json"] {
      let merged = try Data(contentsOf: folder.appendingPathComponent("merged/token-range-change/\(file)"))
      #expect(merged == (try Data(contentsOf: folder.appendingPathComponent("whole/token-range-change/\(file)"))), "\(file)")
    }
  }

  @Test func submittingWithoutSbatchSaysWhatToCheck() throws {
    let folder = try temporaryFolder()
    let result = try BenchProcess.run(
      ["slurm", committedScenario("upgrade"), "--shards", "2", "--job-folder", folder.path, "--submit"],
      environment: ["PATH": folder.path])
    #expect(result.status == 1)
    #expect(result.standardError.hasSuffix("""
      Error: --submit: submit.sh exited with status 127: check that sbatch is on the PATH and the cluster is up \
      (sinfo), or submit later with the job folder's submit.sh.

      """))
  }

  @Test func badOptionsNameTheFlagAndTheFix() throws {
    let cases = [
      (["--shards", "0"], "Error: --shards must lie between 1 and 100000, not 0, e.g. --shards 8.\n"),
      (["--shards", "9223372036854775807"], "Error: --shards must lie between 1 and 100000, not 9223372036854775807, e.g. --shards 8.\n"),
      (["--shards", "2", "--threads", "0"], "Error: --threads must lie between 1 and 1024, not 0, e.g. --threads 2.\n"),
      (["--shards", "2", "--partition", "a b"], "Error: --partition must be one word without spaces, e.g. --partition batch.\n"),
      (["--shards", "2", "--time", ""], "Error: --time must be one word without spaces, e.g. --time 30:00.\n"),
    ]
    for (options, message) in cases {
      let result = try BenchProcess.run(["slurm", committedScenario("upgrade")] + options)
      #expect(result.status == 64)
      #expect(result.standardError.hasPrefix(message), "\(options)")
    }
  }

  /// A shard too large to run in an hour is refused when the job is written,
  /// not on the cluster; with the flag, the shards run with it too.
  @Test func aLargeShardIsRefusedBeforeTheJobIsWritten() throws {
    let job = try temporaryFolder().appendingPathComponent("job")
    let large = ["slurm", committedScenario("upgrade"), "--shards", "2", "--devices", "1000000000", "--replications", "100",
                 "--job-folder", job.path]
    let refused = try BenchProcess.run(large)
    #expect(refused.status == 1)
    #expect(refused.standardError.hasPrefix("Error: this run would need about "))
    #expect(!FileManager.default.fileExists(atPath: job.path))
    let allowed = try BenchProcess.run(large + ["--allow-large-run"])
    #expect(allowed.status == 0, "\(allowed.standardError)")
    let script = try String(contentsOf: job.appendingPathComponent("shards.sbatch"), encoding: .utf8)
    #expect(script.contains(" --allow-large-run "))
  }
}

/// Every path that reaches a job script is quoted for the shell, or refused
/// where no quoting reaches: an `#SBATCH` directive's log path.
@Suite struct SlurmPathSafetyTests {
  @Test func aJobFolderAnSBATCHLineCannotCarryIsRefused() throws {
    let base = try temporaryFolder()
    for name in ["my jobs", "it's", "$HOME", "`id`", "a\nb", "100%", "back\\slash", "#x"] {
      let folder = base.appendingPathComponent(name).path
      let result = try BenchProcess.run(["slurm", committedScenario("aa-test"), "--shards", "2", "--job-folder", folder])
      #expect(result.status == 1, "\(name.debugDescription)")
      #expect(result.standardError == "Error: --job-folder: \(folder.debugDescription) holds a character an #SBATCH line "
        + "cannot carry (a space, a quote, a line break, $, `, %, \\ or #): choose a folder of letters, digits and "
        + "/ . _ - + , : @ =.\n")
      #expect(!FileManager.default.fileExists(atPath: folder))
    }
  }

  /// The merge's output folder stands in the shell lines only, where quoting
  /// keeps a space, a quote, a `$` and a line break as they are.
  @Test func anOutputFolderReachesTheScriptQuoted() throws {
    let base = try temporaryFolder()
    let job = base.appendingPathComponent("job").path
    let out = base.appendingPathComponent("my 'reports' $HOME\nnext").path
    let result = try BenchProcess.run([
      "slurm", committedScenario("aa-test"), "--shards", "2", "--job-folder", job, "--out", out,
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let merge = try String(contentsOfFile: job + "/merge.sbatch", encoding: .utf8)
    let quoted = "'" + out.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    #expect(merge.contains("--out \(quoted)"))
    // The shell reads the quoted word back as the folder itself.
    let echo = try BenchProcess.run(executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "printf %s \(quoted)"])
    #expect(echo.standardOutput == out)
  }
}
