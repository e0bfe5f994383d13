#!/bin/sh
# Runs every committed scenario with two bench builds and compares what they write, byte for byte,
# for a change meant to leave every output as it was (docs/performance.md): each scenario's report
# folder at 4 replications with --events and --html, and its part for shard 1 of 3 at 2
# replications. Prints the number of files compared, or the first differences and exits 1.
#
# Usage: scripts/compare-builds.sh BEFORE_BENCH AFTER_BENCH, e.g. a plain release build of the
# commit before, copied aside, and `swift build -c release`'s bench.
set -eu
cd "$(dirname "$0")/.."
if [ $# -ne 2 ]; then
  echo "usage: scripts/compare-builds.sh BEFORE_BENCH AFTER_BENCH" >&2
  exit 2
fi
for bench in "$1" "$2"; do
  [ -x "$bench" ] || { echo "compare-builds: $bench is not an executable bench: build it first" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run BENCH FOLDER: every scenario's outputs under FOLDER.
run() {
  for scenario in scenarios/*.json; do
    name=$(basename "$scenario" .json)
    "$1" run "$scenario" --replications 4 --out "$2/reports" --events "$2/$name-events.csv" --html --quiet --threads 2
    "$1" run "$scenario" --replications 2 --shard 1/3 --out "$2/parts" --quiet
  done
}

run "$1" "$work/before"
run "$2" "$work/after"
if ! diff -r "$work/before" "$work/after" >"$work/diff"; then
  echo "compare-builds: the two builds write different files:" >&2
  head -n 20 "$work/diff" >&2
  exit 1
fi
echo "compare-builds: $(find "$work/before" -type f | wc -l | tr -d ' ') files, byte for byte the same"
