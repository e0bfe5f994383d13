#!/bin/sh
# Fuzzes every reader of outside input with libFuzzer, each target of bench-fuzz
# for an equal share of SECONDS (default 60): the scenario reader (seeded with
# scenarios/), the table reader, the vendor files (optimizely, growthbook; launchdarkly, statsig, eppo and unleash in platforms), part
# files, --attributes and the tools' exports (seeded with Tests/FuzzCorpus/<target>/). TARGETS
# (default all) picks some. A fuzzer uses one core, so as many targets run at once as the machine
# has cores (JOBS overrides): every target still gets its share, in less wall time. Inputs that
# crash are saved under .build/fuzz/crashes/; copy each into Tests/FuzzCorpus/regressions/<target>/
# with the fix, so that `swift test` replays it.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
# The release build `make test` made for the scratch check and the README's `swift run -c release`
# commands, in its own scratch folder: with LAB_BENCH_FUZZING its readers of outside input carry
# libFuzzer's coverage and bench-fuzz drives libFuzzer (Package.swift), so after `make test`
# nothing is left to compile here.
export LAB_BENCH_FUZZING=${LAB_BENCH_FUZZING-1}
if [ "$LAB_BENCH_FUZZING" != 1 ]; then
  echo "fuzz: needs LAB_BENCH_FUZZING=1, which builds bench-fuzz with libFuzzer (Package.swift)" >&2
  exit 2
fi
swift build -c release --scratch-path .build/fuzzing --product bench-fuzz
binary=$(swift build -c release --scratch-path .build/fuzzing --show-bin-path)/bench-fuzz

targets=${TARGETS:-scenario table optimizely growthbook part attributes export platforms}
count=$(echo $targets | wc -w)
share=$((seconds / count))
[ "$share" -ge 1 ] || share=1
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] || jobs=1

# One target for its share; its log in .build/fuzz/<target>.log.
fuzz() {
  target=$1
  corpus=.build/fuzz/corpus/$target
  crashes=.build/fuzz/crashes/$target
  mkdir -p "$corpus" "$crashes"
  case $target in
    scenario) seeds=scenarios ;;
    *) seeds=Tests/FuzzCorpus/$target ;;
  esac
  regressions=Tests/FuzzCorpus/regressions/$target
  [ -d "$regressions" ] || regressions=
  # New inputs go to the first folder; the seeds and the regressions are read.
  "$binary" "$target" "$corpus" "$seeds" $regressions \
    -max_total_time=$share -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    -artifact_prefix="$crashes/" -print_final_stats=1 2>".build/fuzz/$target.log"
}

# What one finished target found, in the order the targets are listed.
report() {
  target=$1
  if [ "$2" -ne 0 ]; then
    tail -40 ".build/fuzz/$target.log"
    echo "the $target fuzzer found a failing input in .build/fuzz/crashes/$target: replay it with" \
      "\`swift run bench-fuzz $target FILE\`, fix it, and add it to Tests/FuzzCorpus/regressions/$target/" >&2
    return 1
  fi
  echo "fuzzed the $target reader for $share s"
  grep -E "^stat::(number_of_executed_units|peak_rss_mb)" ".build/fuzz/$target.log" || true
}

status=0
set -- $targets
while [ $# -gt 0 ]; do
  # Up to $jobs targets at once, each remembered as target:pid, then awaited in order.
  batch=""
  while [ $# -gt 0 ] && [ "$(echo $batch | wc -w)" -lt "$jobs" ]; do
    fuzz "$1" &
    batch="$batch $1:$!"
    shift
  done
  for running in $batch; do
    result=0
    wait "${running#*:}" || result=$?
    report "${running%%:*}" "$result" || status=1
  done
done
exit $status
