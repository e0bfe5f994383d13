#!/bin/sh
# Shows that a run's memory does not grow with --replications: each
# replication is analysed and folded into the calibration as it finishes. The
# plan is large on purpose (one experiment of 64 variants over 3,660 days,
# four metrics), so that one replication's tally is hundreds of megabytes.
# Prints the seconds and the peak resident memory (GNU time) for 1, 2 and 8
# replications.
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/large.json" <<'PY'
import json, sys
variants = [{"name": f"V{i}", "assignments": {"k": f"v{i}"}} for i in range(64)]
experiment = {"name": "Large", "keys": ["k"], "variants": variants}
versions = [{"version": "v0", "releaseDay": 0, "experiments": [experiment]}]
versions += [{"version": f"v{i}", "releaseDay": i * 36, "adoption": {"meanDelayDays": 1}, "experiments": [experiment]}
             for i in range(1, 100)]
metrics = [{"name": f"m{i}", "kind": "conversion", "baseline": 0.1} for i in range(4)]
scenario = {"name": "large", "seed": 1, "devices": 200, "days": 3660, "versions": versions, "metrics": metrics}
json.dump(scenario, open(sys.argv[1], "w"))
PY
swift build --product bench >/dev/null
bench=$(swift build --show-bin-path)/bench
for replications in 1 2 8; do
  /usr/bin/time -f "$replications replications: %e s, peak %M KB" \
    "$bench" "$work/large.json" --replications "$replications" --out "$work/reports" --quiet --allow-large-run
done
