#!/usr/bin/env bash
# Measures a sharded run on a one-node Slurm cluster started here against the
# same run on one machine, for docs/cluster.md: wall time of each, the
# speed-up, and whether the merged report is byte-identical.
#
# Usage: scripts/measure-cluster.sh [shards] [devices] [replications]
# (defaults 4, 1000000 and 4). Needs root, slurm-wlm and munge; builds bench in release.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shards=${1:-4}
devices=${2:-1000000}
replications=${3:-4}
cd "$root"
swift build -c release --product bench >/dev/null
bench=$(swift build -c release --show-bin-path)/bench
scenario=$root/scenarios/upgrade.json

# shellcheck source=../Tests/Integration/slurm-cluster.sh
source "$root/Tests/Integration/slurm-cluster.sh"
work=$(mktemp -d)
trap 'stop_cluster; rm -rf "$work"' EXIT
start_cluster "$work/cluster"

start=$(date +%s%N)
"$bench" "$scenario" --devices "$devices" --replications "$replications" --threads "$(nproc)" --out "$work/whole" --quiet
one=$(( $(date +%s%N) - start ))

start=$(date +%s%N)
"$bench" slurm "$scenario" --shards "$shards" --devices "$devices" --replications "$replications" \
  --job-folder "$work/job" --out "$work/merged" --submit >/dev/null
wait_for "the merge" 3600 test -f "$work/merged/upgrade/report.md"
cluster=$(( $(date +%s%N) - start ))

same=no
cmp -s "$work/whole/upgrade/report.md" "$work/merged/upgrade/report.md" \
  && cmp -s "$work/whole/upgrade/results.json" "$work/merged/upgrade/results.json" && same=yes
printf 'machine: %s cores\nrun: upgrade.json, %s devices x %s replications\n' "$(nproc)" "$devices" "$replications"
awk -v one="$one" -v cluster="$cluster" -v shards="$shards" -v cores="$(nproc)" -v same="$same" 'BEGIN {
  printf "one machine (%d threads): %.1f s\n", cores, one / 1e9
  printf "slurm, %d shards of 1 core, submit to merged report: %.1f s\n", shards, cluster / 1e9
  printf "speed-up: %.2f\nbyte-identical: %s\n", one / cluster, same
}'
