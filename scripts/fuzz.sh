#!/bin/sh
# Fuzzes the scenario reader and the table reader with libFuzzer, each for
# half of SECONDS (default 60), from the seed corpus: scenarios/ and
# Tests/FuzzCorpus/table/. Inputs that crash are saved under .build/fuzz/crashes/;
# copy each into Tests/FuzzCorpus/regressions/<target>/ with the fix, so that
# `swift test` replays it.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
binary=.build/fuzz/release/bench-fuzz

swift build --build-path .build/fuzz -c release --product bench-fuzz \
  -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING -Xswiftc -use-ld=lld

status=0
for target in scenario table; do
  corpus=.build/fuzz/corpus/$target
  crashes=.build/fuzz/crashes/$target
  mkdir -p "$corpus" "$crashes"
  case $target in
    scenario) seeds=scenarios ;;
    table) seeds=Tests/FuzzCorpus/table ;;
  esac
  regressions=Tests/FuzzCorpus/regressions/$target
  [ -d "$regressions" ] || regressions=
  echo "fuzzing the $target reader for $((seconds / 2)) s"
  # New inputs go to the first folder; the seeds and the regressions are read.
  if ! "$binary" "$target" "$corpus" "$seeds" $regressions \
    -max_total_time=$((seconds / 2)) -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
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
