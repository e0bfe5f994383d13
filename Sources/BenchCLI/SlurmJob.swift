import Foundation
import Sharding

/// The batch scripts that run a scenario's shards as a Slurm job array and
/// merge them once every shard has succeeded.
///
/// The folder is self-contained: it holds a copy of the scenario (the job runs
/// what was planned even if the file changes meanwhile), the two scripts, and
/// `submit.sh`, which submits the array and then the merge with
/// `--dependency=afterok` on it. A shard that fails asks Slurm to requeue it
/// (the array is submitted with `--requeue`), up to `retries` times; the merge
/// waits until every shard has succeeded.
struct SlurmJob {
  /// The job's name, from the scenario's.
  let name: String
  /// Absolute paths.
  let folder: URL
  let bench: String
  let out: String
  let shards: Int
  let threads: Int
  let partition: String?
  let time: String?
  /// `run`'s options that change what is simulated: seed, devices, replications.
  let runOptions: [String]
  let retries = 3

  var scenario: URL { folder.appendingPathComponent("scenario.json") }
  var parts: URL { folder.appendingPathComponent("parts") }
  var logs: URL { folder.appendingPathComponent("logs") }
  var shardsScript: URL { folder.appendingPathComponent("shards.sbatch") }
  var mergeScript: URL { folder.appendingPathComponent("merge.sbatch") }
  var submitScript: URL { folder.appendingPathComponent("submit.sh") }

  /// The array job: one task per shard, `SLURM_ARRAY_TASK_ID` as K.
  var shardsText: String {
    var words: [String] = [bench, "run", scenario.path].map(ShellWord.quoted)
    words += ["--shard", "\"${SLURM_ARRAY_TASK_ID}/\(shards)\"", "--out", ShellWord.quoted(parts.path)]
    words += runOptions.map(ShellWord.quoted)
    words += ["--threads", "\"${SLURM_CPUS_PER_TASK:-\(threads)}\"", "--quiet"]
    let run = words.joined(separator: " ")
    return """
      #!/bin/bash
      # Written by `bench slurm`: simulates shard K of \(shards) of \(name) in array task K.
      #SBATCH --job-name=bench-\(name)-shards
      #SBATCH --array=0-\(shards - 1)
      #SBATCH --requeue
      #SBATCH --cpus-per-task=\(threads)
      #SBATCH --output=\(logs.path)/shard-%a.out
      #SBATCH --open-mode=append
      \(directives)
      set -u
      # A part is written whole or not at all, so a shard cut short leaves none
      # behind; a failed shard is put back in the queue for another try.
      \(run) && exit 0
      status=$?
      if [ "${SLURM_RESTART_COUNT:-0}" -lt \(retries) ]; then
        echo "shard ${SLURM_ARRAY_TASK_ID} failed with status $status: requeued" >&2
        scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
      fi
      exit "$status"

      """
  }

  /// The merge, which names every part so that a missing one is reported.
  var mergeText: String {
    let partFiles = ShellWord.quoted(parts.path + "/\(name).shard-") + "{0..\(shards - 1)}" + ShellWord.quoted("-of-\(shards).part")
    return """
      #!/bin/bash
      # Written by `bench slurm`: merges the \(shards) parts of \(name) once every shard has succeeded.
      #SBATCH --job-name=bench-\(name)-merge
      #SBATCH --output=\(logs.path)/merge.out
      #SBATCH --open-mode=append
      \(directives)
      set -eu
      exec \(ShellWord.quoted(bench)) merge \(partFiles) --out \(ShellWord.quoted(out))

      """
  }

  /// Submits the array, then the merge after it; prints both job ids.
  var submitText: String {
    """
    #!/bin/sh
    # Written by `bench slurm`: submits the shards of \(name), then their merge.
    set -eu
    shards=$(sbatch --parsable \(ShellWord.quoted(shardsScript.path)))
    shards=${shards%%;*}
    merge=$(sbatch --parsable --dependency=afterok:"$shards" --kill-on-invalid-dep=yes \(ShellWord.quoted(mergeScript.path)))
    merge=${merge%%;*}
    echo "Submitted shards as job $shards and their merge as job $merge."

    """
  }

  private var directives: String {
    [partition.map { "#SBATCH --partition=\($0)" }, time.map { "#SBATCH --time=\($0)" }]
      .compactMap { $0 }.joined(separator: "\n")
  }

  /// Writes the folder: the scenario, the scripts, and empty parts and logs folders.
  func write(scenarioFile: Data) throws {
    for folder in [folder, parts, logs] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    try scenarioFile.write(to: scenario)
    for (script, text) in [(shardsScript, shardsText), (mergeScript, mergeText), (submitScript, submitText)] {
      try Data(text.utf8).write(to: script)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    }
  }

  /// The characters a path may have to stand bare in an `#SBATCH` directive
  /// (no space, quote, line break, `$`, backtick, `%`, backslash or `#`).
  static let directiveSafe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-=+:,@")
}
