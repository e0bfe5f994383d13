#!/bin/sh
# Compares the device loop's scratch memory with and without its bounds checks on random runs.
# The debug build checks every access to a ScratchArray (CHECKED_SCRATCH) and traps on one out of
# bounds; the release build reads and writes through the bare pointers. Each committed scenario runs
# RUNS times (default 2) with a random seed and population in both builds, and the two results.json
# must be byte for byte the same (two replications each, so that the replications path is compared
# too). The seeds are printed, so a failure can be replayed.
#
# Usage: scripts/check-scratch.sh [CHECKED_BENCH UNCHECKED_BENCH [RUNS]]: the two benches `make test`
# built (it passes them, as its unit tests hold SwiftPM's lock on .build meanwhile), or, without
# them, the two builds below, made if missing.
set -eu
cd "$(dirname "$0")/.."
if [ $# -eq 1 ] || [ $# -gt 3 ]; then
  echo "usage: scripts/check-scratch.sh [CHECKED_BENCH UNCHECKED_BENCH [RUNS]]" >&2
  exit 2
elif [ $# -ge 2 ]; then
  checked=$1
  unchecked=$2
  runs=${3:-2}
else
  # The debug build is the one `make test` builds, its modules optimised (LAB_BENCH_OPTIMIZED_DEBUG).
  export LAB_BENCH_OPTIMIZED_DEBUG=${LAB_BENCH_OPTIMIZED_DEBUG-1}
  # The release build is the one the fuzzers and the README's `swift run -c release` commands use
  # too, in its own scratch folder: libFuzzer's coverage in the readers of outside input
  # (LAB_BENCH_FUZZING), none in the device loop compared here.
  export LAB_BENCH_FUZZING=1
  swift build --product bench >/dev/null
  swift build -c release --scratch-path .build/fuzzing --product bench >/dev/null
  checked=$(swift build --show-bin-path)/bench
  unchecked=$(swift build -c release --scratch-path .build/fuzzing --show-bin-path)/bench
  runs=2
fi
case $runs in
'' | *[!0-9]*) echo "check-scratch: RUNS is '$runs': give a whole number of runs, e.g. 2" >&2; exit 2 ;;
esac
for bench in "$checked" "$unchecked"; do
  [ -x "$bench" ] || { echo "check-scratch: $bench is not an executable bench: build it first" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
for scenario in scenarios/*.json; do
  name=$(basename "$scenario" .json)
  # A comparison runs through `bench compare`, not `bench run`.
  [ "$name" = compare-frameworks ] && continue
  run=0
  while [ "$run" -lt "$runs" ]; do
    seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
    devices=$((seed % 5000 + 200))
    for build in checked unchecked; do
      eval bench=\$$build
      "$bench" "$scenario" --seed "$seed" --devices "$devices" --replications 2 --out "$work/$build" --quiet
    done
    if ! cmp -s "$work/checked/$name/results.json" "$work/unchecked/$name/results.json"; then
      echo "check-scratch: $scenario --seed $seed --devices $devices: the builds disagree" >&2
      failures=$((failures + 1))
    fi
    run=$((run + 1))
  done
done
[ "$failures" -eq 0 ] || exit 1
echo "check-scratch: checked and unchecked builds agree on $runs random runs of every scenario"
