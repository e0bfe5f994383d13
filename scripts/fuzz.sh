#!/bin/sh
# Fuzzes every reader of outside input with libFuzzer, each target of bench-fuzz
# for an equal share of SECONDS (default 60): the scenario reader (seeded with
# scenarios/), the table reader, the vendor files (optimizely, growthbook; launchdarkly, statsig, eppo and unleash in platforms), part
# files, --attributes and the tools' exports (seeded with Tests/FuzzCorpus/<target>/). TARGETS
# (default all) picks some. Inputs that crash are saved under .build/fuzz/crashes/;
# copy each into Tests/FuzzCorpus/regressions/<target>/ with the fix, so that
# `swift test` replays it.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
binary=.build/fuzz/release/bench-fuzz

swift build --build-path .build/fuzz -c release --product bench-fuzz \
  -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING -Xswiftc -use-ld=lld

targets=${TARGETS:-scenario table optimizely growthbook part attributes export platforms}
count=$(echo $targets | wc -w)
share=$((seconds / count))
[ "$share" -ge 1 ] || share=1
status=0
for target in $targets; do
  corpus=.build/fuzz/corpus/$target
  crashes=.build/fuzz/crashes/$target
  mkdir -p "$corpus" "$crashes"
  case $target in
    scenario) seeds=scenarios ;;
    *) seeds=Tests/FuzzCorpus/$target ;;
  esac
  regressions=Tests/FuzzCorpus/regressions/$target
  [ -d "$regressions" ] || regressions=
  echo "fuzzing the $target reader for $share s"
  # New inputs go to the first folder; the seeds and the regressions are read.
  if ! "$binary" "$target" "$corpus" "$seeds" $regressions \
    -max_total_time=$share -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    -artifact_prefix="$crashes/" -print_final_stats=1 2>".build/fuzz/$target.log"; then
    status=1
    tail -40 ".build/fuzz/$target.log"
    echo "the $target fuzzer found a failing input in $crashes: replay it with" \
      "\`swift run bench-fuzz $target FILE\`, fix it, and add it to Tests/FuzzCorpus/regressions/$target/" >&2
  else
    grep -E "^stat::(number_of_executed_units|peak_rss_mb)" ".build/fuzz/$target.log" || true
  fi
done
exit $status
