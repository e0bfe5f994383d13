#!/bin/sh
# Reproduces the memory figures in docs/analyze.md: bench analyze streams a
# table, so its peak memory follows the devices, not the rows. It writes two
# events tables of the same 600,000 devices in 3 experiments, the second with
# every row three times, analyses both and prints each table's size, the
# seconds and the peak resident memory (GNU time).
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import random, sys
work = sys.argv[1]
random.seed(1)
for name, copies in (("once", 1), ("thrice", 3)):
    random.seed(1)
    with open(f"{work}/{name}.csv", "w") as table:
        table.write("value,key,variant,experiment,source,reason,id_for_vendor,day\n")
        for device in range(600_000):
            for experiment in ("Theme", "Onboarding", "Price"):
                variant = "AB"[random.getrandbits(1)]
                row = f"x,k,{variant},{experiment},Local,displayed,device-{device:07d},{device % 30}\n"
                table.write(row * copies)
random.seed(2)
with open(f"{work}/outcomes.csv", "w") as table:
    table.write("id_for_vendor,metric,value\n")
    for device in range(600_000):
        table.write(f"device-{device:07d},converted,{random.getrandbits(1)}\n")
PY
swift build --product bench >/dev/null
bench=$(swift build --show-bin-path)/bench
for name in once thrice; do
  size=$(du -m "$work/$name.csv" | cut -f1)
  /usr/bin/time -f "$name: ${size} MB table, %e s, peak %M KB" \
    "$bench" analyze "$work/$name.csv" --outcomes "$work/outcomes.csv" --out "$work/reports" --name "$name" --quiet
done
