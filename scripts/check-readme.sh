#!/usr/bin/env bash
# Runs every command of the README's "Using the bench" and "On a cluster" blocks as written, each
# block in order, in a temporary folder that holds scenarios/ and docs/examples/, and fails on the
# first that does not succeed. `swift run bench ARGS` reaches the debug build's bench and `swift run
# -c release bench ARGS` the release build's, as they would for a reader, through a `swift` shim
# first on PATH. The Slurm line needs a cluster: as root with Debian's slurm-wlm and munge (which
# scripts/setup.sh installs) a one-node cluster is started for it and the merged report awaited;
# elsewhere that line is skipped with a notice, except on CI, where it fails. The two commands that
# write the committed examples (reports/upgrade/, reports/compare-frameworks/) must write them
# byte for byte as committed.
#
# Usage: scripts/check-readme.sh [--section using|cluster] [DEBUG_BENCH RELEASE_BENCH]
#   --section: one block only, "Using the bench" or "On a cluster" (default: both, in that order);
#     the two share no files, so `make test` runs them side by side.
#   DEBUG_BENCH RELEASE_BENCH: the two benches `make test` built (it passes them, as its unit tests
#     hold SwiftPM's lock on .build meanwhile), or, without them, the two builds, made if missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() {
  echo "usage: scripts/check-readme.sh [--section using|cluster] [DEBUG_BENCH RELEASE_BENCH]" >&2
  exit 2
}
section=both
if [ "${1:-}" = --section ]; then
  [ $# -ge 2 ] || usage
  section=$2
  shift 2
fi
case $section in
using | cluster | both) ;;
*)
  echo "check-readme: --section is '$section': give using (\"Using the bench\") or cluster (\"On a cluster\")" >&2
  exit 2
  ;;
esac
if [ $# -eq 1 ] || [ $# -gt 2 ]; then
  usage
elif [ $# -eq 2 ]; then
  debug_bench=$1
  release_bench=$2
else
  # The debug build is the one `make test` builds, its modules optimised (LAB_BENCH_OPTIMIZED_DEBUG).
  export LAB_BENCH_OPTIMIZED_DEBUG=${LAB_BENCH_OPTIMIZED_DEBUG-1}
  swift build --product bench --package-path "$root" >/dev/null
  swift build -c release --product bench --package-path "$root" >/dev/null
  debug_bench=$(swift build --show-bin-path --package-path "$root")/bench
  release_bench=$(swift build -c release --show-bin-path --package-path "$root")/bench
fi
for bench in "$debug_bench" "$release_bench"; do
  [ -x "$bench" ] || { echo "check-readme: $bench is not an executable bench: build it first" >&2; exit 2; }
done
debug_bench=$(cd "$(dirname "$debug_bench")" && pwd)/$(basename "$debug_bench")
release_bench=$(cd "$(dirname "$release_bench")" && pwd)/$(basename "$release_bench")

work=$(mktemp -d)
cluster_up=false
cleanup() {
  if $cluster_up; then stop_cluster; fi
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/run/docs" "$work/bin"
ln -s "$root/scenarios" "$work/run/scenarios"
ln -s "$root/docs/examples" "$work/run/docs/examples"
cat >"$work/bin/swift" <<'SHIM'
#!/bin/sh
# swift run [-c release] bench ARGS: the bench of that build with ARGS.
[ "${1:-}" = run ] || { echo "check-readme: the README runs 'swift $*', which this check does not know" >&2; exit 2; }
shift
bench=$DEBUG_BENCH
case "${1:-} ${2:-}" in
"-c release") bench=$RELEASE_BENCH; shift 2 ;;
"-c "*) echo "check-readme: the README runs 'swift run $*', a build this check does not know" >&2; exit 2 ;;
esac
[ "${1:-}" = bench ] || { echo "check-readme: 'swift run $*' runs no bench" >&2; exit 2; }
shift
exec "$bench" "$@"
SHIM
chmod +x "$work/bin/swift"

# The lines of the ```sh block under the heading $1.
block() {
  awk -v heading="$1" '
    $0 == heading { found = 1; next }
    found && /^```sh$/ { inside = 1; next }
    inside && /^```$/ { exit }
    inside && NF { print }
  ' "$root/README.md"
}

can_run_slurm() {
  command -v slurmctld >/dev/null 2>&1 && command -v munged >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]
}

# The committed examples, reports/upgrade/ and reports/compare-frameworks/, must be what the
# README's commands that write them write today: compared file by file as soon as each has run.
examples=0
fresh_example() {
  local command folder fix
  command=$(echo "${1%%#*}" | sed 's/ *$//')
  case "$command" in
  "swift run bench scenarios/upgrade.json") folder=upgrade fix="make run" ;;
  "swift run bench compare scenarios/compare-frameworks.json") folder=compare-frameworks fix="make compare" ;;
  *) return 0 ;;
  esac
  if ! diff -r -x README.md "$root/reports/$folder" "$work/run/reports/$folder" >"$work/diff" 2>&1; then
    echo "check-readme: reports/$folder is stale: '$command' writes otherwise today; run $fix and commit it" >&2
    head -n 20 "$work/diff" >&2
    exit 1
  fi
  echo "check-readme: reports/$folder is what '$command' writes"
  examples=$((examples + 1))
}

ran=0
while IFS= read -r line; do
  case "$line" in
  *"bench slurm "*"--submit"*)
    if ! can_run_slurm; then
      if [ "${CI:-}" = true ]; then
        echo "check-readme: '$line' needs root and slurm-wlm and munge (scripts/setup.sh installs them)" >&2
        exit 1
      fi
      echo "check-readme: skipped (no Slurm here): $line"
      continue
    fi
    if ! $cluster_up; then
      # shellcheck source=../Tests/Integration/slurm-cluster.sh
      source "$root/Tests/Integration/slurm-cluster.sh"
      start_cluster "$work/cluster"
      cluster_up=true
    fi
    # The job's merge rewrites reports/upgrade/: keep what `bench merge` wrote from the parts by hand.
    mv "$work/run/reports/upgrade" "$work/merged-by-hand"
    ;;
  esac
  started=$SECONDS
  if ! (cd "$work/run" && PATH="$work/bin:$PATH" DEBUG_BENCH="$debug_bench" RELEASE_BENCH="$release_bench" \
    bash -o pipefail -c "$line" >"$work/out" 2>&1); then
    echo "check-readme: this README command failed:" >&2
    echo "  $line" >&2
    sed 's/^/  | /' "$work/out" | tail -n 20 >&2
    exit 1
  fi
  case "$line" in
  *"bench slurm "*"--submit"*)
    # The job's merge writes the report the parts merged by hand gave, byte for byte.
    wait_for "the README's Slurm job" 300 test -f "$work/run/reports/upgrade/results.json"
    for file in report.md results.json; do
      if ! cmp -s "$work/merged-by-hand/$file" "$work/run/reports/upgrade/$file"; then
        echo "check-readme: the Slurm job's $file differs from the parts merged by hand" >&2
        exit 1
      fi
    done
    ;;
  esac
  fresh_example "$line"
  ran=$((ran + 1))
  echo "check-readme: ok in $((SECONDS - started))s: ${line%%#*}"
done < <(
  if [ "$section" != cluster ]; then block "## Using the bench"; fi
  if [ "$section" != using ]; then block "### On a cluster"; fi
)
# Fewer commands than the blocks hold (21 and 4 today, the Slurm line skipped without Slurm) means
# the headings or the blocks were not found.
case $section in
using) expected_commands=20 expected_examples=2 name='"Using the bench" block' verb=was ;;
cluster) expected_commands=3 expected_examples=0 name='"On a cluster" block' verb=was ;;
both) expected_commands=23 expected_examples=2 name='"Using the bench" and "On a cluster" blocks' verb=were ;;
esac
[ "$ran" -ge "$expected_commands" ] || {
  echo "check-readme: only $ran commands ran; the README's $name $verb not found" >&2
  exit 1
}
[ "$examples" -eq "$expected_examples" ] || { echo "check-readme: the README no longer runs the commands that write reports/upgrade and reports/compare-frameworks" >&2; exit 1; }
echo "check-readme: all $ran commands of the README's $name ran"
