#!/usr/bin/env bash
# Integration test of `bench slurm` on a real one-node Slurm cluster, started
# and stopped here: four shards and their merge give the one-machine report
# byte for byte, and so they do when one shard's process is killed mid-run and
# Slurm requeues it.
#
# Usage: Tests/Integration/slurm-test.sh [path to bench]. Needs root (the
# daemons run as root) and Debian's slurm-wlm and munge, which scripts/setup.sh
# installs. Without them it says it is skipped, except on CI, where it fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bench=${1:-$root/.build/debug/bench}

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1 || [ "$(id -u)" -ne 0 ]; then
  if [ "${CI:-}" = true ]; then
    echo "slurm test: needs root and slurm-wlm and munge (scripts/setup.sh installs them)" >&2
    exit 1
  fi
  echo "slurm test: skipped: needs root and Debian's slurm-wlm and munge (scripts/setup.sh installs them as root)"
  exit 0
fi

# shellcheck source=slurm-cluster.sh
source "$root/Tests/Integration/slurm-cluster.sh"
work=$(mktemp -d)
trap 'stop_cluster; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
started=$SECONDS
start_cluster "$work/cluster"
echo "slurm test: one-node cluster up in $((SECONDS - started))s"

scenario=$root/scenarios/upgrade.json
passed=0

# same_report WHOLE MERGED: the merged folder holds the one-machine run's files, byte for byte.
same_report() {
  local file
  for file in report.md results.json; do
    if ! cmp -s "$1/upgrade/$file" "$2/upgrade/$file"; then
      echo "slurm test: $2/upgrade/$file differs from the one-machine run's" >&2
      return 1
    fi
  done
  [ "$(ls "$1/upgrade")" = "$(ls "$2/upgrade")" ]
}

# 1. Four shards as a job array, then the merge that depends on them.
"$bench" slurm "$scenario" --shards 4 --devices 40000 --replications 1 --job-folder "$work/job1" --out "$work/merged1" --submit
"$bench" "$scenario" --devices 40000 --replications 1 --out "$work/whole1" --quiet
wait_for "the merge of job 1" 90 test -f "$work/merged1/upgrade/report.md"
same_report "$work/whole1" "$work/merged1"
passed=$((passed + 1))
echo "slurm test: 4 shards merged to the one-machine report ($((SECONDS - started))s)"

# 2. Shard 2's process killed mid-run: Slurm requeues the shard, the merge waits for it. The nodes
# run the bench through a wrapper that stops shard 2's first try (SIGSTOP) as soon as it starts and
# writes down its pid, so the test kills a running shard however fast the machine: a shard that
# raced to its end before the test looked would leave nothing to kill.
devices=400000
wrapper=$work/bench-stopping-shard-2
{
  echo '#!/bin/bash'
  echo '# The bench, but shard 2 of job 2 stops at its first try until the test kills it.'
  echo 'if [ "${SLURM_ARRAY_TASK_ID:-}" = 2 ] && [ "${SLURM_RESTART_COUNT:-0}" = 0 ]; then'
  printf '  %q "$@" &\n' "$bench"
  echo '  pid=$!'
  echo '  kill -STOP "$pid"'
  printf '  echo "$pid" > %q && mv %q %q\n' "$work/shard-2.pid.new" "$work/shard-2.pid.new" "$work/shard-2.pid"
  echo '  wait "$pid"'
  echo '  exit $?'
  echo 'fi'
  printf 'exec %q "$@"\n' "$bench"
} > "$wrapper"
chmod +x "$wrapper"
"$bench" slurm "$scenario" --shards 4 --devices $devices --replications 1 --bench "$wrapper" --job-folder "$work/job2" \
  --out "$work/merged2" --submit
wait_for "shard 2 of job 2 to start" 60 test -s "$work/shard-2.pid"
killed=$(cat "$work/shard-2.pid")
if ! kill -KILL "$killed"; then
  echo "slurm test: shard 2 of job 2 (pid $killed) could not be killed" >&2
  exit 1
fi
echo "slurm test: killed shard 2 mid-run ($((SECONDS - started))s)"
"$bench" "$scenario" --devices $devices --replications 1 --out "$work/whole2" --quiet
wait_for "the merge of job 2" 150 test -f "$work/merged2/upgrade/report.md"
grep -q "shard 2 failed with status 137: requeued" "$work/job2/logs/shard-2.out"
[ "$(grep -c . "$work/job2/logs/shard-2.out")" -ge 2 ]
if [ -n "$(ls -A "$work/job2/parts" | grep -v '\.part$' || true)" ]; then
  echo "slurm test: the killed shard left files beside the parts: $(ls -A "$work/job2/parts")" >&2
  exit 1
fi
same_report "$work/whole2" "$work/merged2"
passed=$((passed + 1))
echo "slurm test: the killed shard was requeued and the merge is the one-machine report ($((SECONDS - started))s)"

echo "slurm: $passed passed, 0 failed"
