#!/bin/sh
# Fits exports the bench did not make and checks the fitted world against them (issue 63): for each
# seed and profile, scripts/foreign_world.py writes a mobile app's Amplitude export from a model that
# is not the bench's, `bench fit` fits it, the fitted world is simulated and exported the same way,
# and scripts/export_figures.py compares the two exports' daily active and new devices, sessions per
# active day, day-7 retention and version shares by issue 63's bounds. Needs python3 (no packages).
#
# Usage: scripts/check-foreign-fit.sh [BENCH]   (default: the debug build's bench, built if missing)
set -eu
cd "$(dirname "$0")/.."
if [ $# -gt 1 ]; then
  echo "usage: scripts/check-foreign-fit.sh [BENCH]" >&2
  exit 2
fi
if [ $# -eq 1 ]; then
  bench=$1
else
  swift build --product bench >/dev/null
  bench=$(swift build --show-bin-path)/bench
fi
[ -x "$bench" ] || { echo "check-foreign-fit: $bench is not an executable bench" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for run in "1 steady 8000 56" "2 growth 8000 56" "3 steady 4000 35" "4 growth 3000 28" "5 growth 12000 70" \
  "6 churn 10000 56" "7 churn 4000 30"; do
  set -- $run
  echo "seed $1, $2, $3 devices over $4 days:"
  python3 scripts/foreign_world.py --seed "$1" --profile "$2" --devices "$3" --days "$4" --out "$work/export.jsonl"
  "$bench" fit "$work/export.jsonl" --preset amplitude --out "$work/world.json" --quiet
  "$bench" "$work/world.json" --replications 1 --events "$work/again.jsonl" --events-shape amplitude \
    --events-start 2026-03-02 --out "$work/runs" --quiet
  python3 scripts/export_figures.py "$work/export.jsonl" "$work/again.jsonl" || status=1
done
exit $status
