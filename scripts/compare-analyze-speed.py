#!/usr/bin/env python3
"""Times `bench analyze` against Polars and DuckDB computing the same per-variant tallies.

Run by hand, never by `make test` (polars and duckdb from PyPI):

    python3 -m pip install polars==2.1.0 duckdb==2.0.1
    swift build -c release --product bench
    .build/release/bench scenarios/upgrade.json --devices 1000000 --events /tmp/E.csv --out /tmp/E-run --quiet
    python3 scripts/compare-analyze-speed.py /tmp/E.csv /tmp/E-outcomes.csv [--runs 3]

The tallies are what the bench's report rests on: per experiment and variant, the devices shown it
(exposed), those also shown another variant (contaminated), those whose first "displayed" event
(earliest day, then file order) shows it (first exposed), and over the first-exposed devices each
metric's sum and sum of squares. The queries are the plain ones a user would write: a group-by
per device and experiment taking the variant of the earliest day (Polars' `sort_by(...).first()`
within the group, DuckDB's `arg_min`, which takes any of a day's ties: the check below says whether
that changed a count), and the outcomes summed per device and metric; no sort of the whole table.
The bench does more than the queries: it also runs its tests and writes its report. The tools run
in turn, each as its own process under /usr/bin/time on both cores; the script prints every run's
wall seconds and peak resident memory and their medians, and checks that the three tools agree on
the counts.
"""

import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

POLARS = r"""
import json, sys, polars as pl
events, outcomes = sys.argv[1], sys.argv[2]
shown = (pl.scan_csv(events, schema_overrides={"id_for_vendor": pl.Utf8})
         .filter(pl.col("reason") == "displayed"))
first = shown.group_by("experiment", "id_for_vendor").agg(
    pl.col("variant").sort_by("day", maintain_order=True).first().alias("first"),
    pl.col("variant").n_unique().alias("variants"))
exposed = (shown.select("experiment", "variant", "id_for_vendor").unique()
           .join(first, on=["experiment", "id_for_vendor"])
           .group_by("experiment", "variant")
           .agg(pl.len().alias("exposed"), (pl.col("variants") > 1).sum().alias("contaminated")))
values = (pl.scan_csv(outcomes, schema_overrides={"id_for_vendor": pl.Utf8})
          .group_by("id_for_vendor").agg(
              pl.col("value").filter(pl.col("metric") == "subscribed").sum().alias("subscribed"),
              pl.col("value").filter(pl.col("metric") == "revenue").sum().alias("revenue")))
tallies = (first.join(values, on="id_for_vendor", how="left").group_by("experiment", "first")
           .agg(pl.len().alias("firstExposed"),
                pl.col("subscribed").fill_null(0).sum(), (pl.col("subscribed").fill_null(0) ** 2).sum().alias("s2"),
                pl.col("revenue").fill_null(0).sum().alias("r"), (pl.col("revenue").fill_null(0) ** 2).sum().alias("r2")))
result = exposed.join(tallies, left_on=["experiment", "variant"], right_on=["experiment", "first"], how="left").collect()
print(json.dumps(sorted([r["experiment"], r["variant"], r["exposed"], r["contaminated"], r["firstExposed"]] for r in result.iter_rows(named=True))))
"""

DUCKDB = r"""
import json, sys, duckdb
events, outcomes = sys.argv[1], sys.argv[2]
con = duckdb.connect()
con.execute("SET threads TO 2")
con.execute("SET enable_progress_bar = false")
rows = con.execute(f'''
WITH shown AS (
  SELECT experiment, variant, id_for_vendor, day FROM read_csv('{events}', types = {{'id_for_vendor': 'VARCHAR'}})
  WHERE reason = 'displayed'),
first AS (
  SELECT experiment, id_for_vendor, arg_min(variant, day) AS first, count(DISTINCT variant) AS variants
  FROM shown GROUP BY ALL),
exposed AS (
  SELECT p.experiment, p.variant, count(*) AS exposed, count(*) FILTER (WHERE f.variants > 1) AS contaminated
  FROM (SELECT DISTINCT experiment, variant, id_for_vendor FROM shown) p JOIN first f USING (experiment, id_for_vendor)
  GROUP BY ALL),
vals AS (
  SELECT id_for_vendor, sum(value) FILTER (WHERE metric = 'subscribed') AS subscribed,
         sum(value) FILTER (WHERE metric = 'revenue') AS revenue
  FROM read_csv('{outcomes}', types = {{'id_for_vendor': 'VARCHAR'}}) GROUP BY ALL),
tallies AS (
  SELECT f.experiment, f.first, count(*) AS firstExposed,
         sum(coalesce(v.subscribed, 0)), sum(coalesce(v.subscribed, 0) ^ 2), sum(coalesce(v.revenue, 0)), sum(coalesce(v.revenue, 0) ^ 2)
  FROM first f LEFT JOIN vals v USING (id_for_vendor) GROUP BY ALL)
SELECT e.experiment, e.variant, e.exposed, e.contaminated, t.firstExposed
FROM exposed e LEFT JOIN tallies t ON e.experiment = t.experiment AND e.variant = t.first''').fetchall()
print(json.dumps(sorted([list(r) for r in rows])))
"""


def timed(command):
    """Runs a command under /usr/bin/time: its standard output, wall seconds and peak resident MB."""
    with tempfile.NamedTemporaryFile("r") as report:
        result = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", report.name] + command,
                                capture_output=True, text=True, check=True)
        seconds, kilobytes = report.read().split()
    return result.stdout, float(seconds), int(kilobytes) / 1024


def main():
    events, outcomes = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
    bench = str(ROOT / ".build/release/bench")
    out = tempfile.mkdtemp()
    commands = {
        "bench analyze": [bench, "analyze", events, "--outcomes", outcomes, "--scenario", str(ROOT / "scenarios/upgrade.json"),
                          "--out", out, "--quiet", "--force"],
        "polars": [sys.executable, "-c", POLARS, events, outcomes],
        "duckdb": [sys.executable, "-c", DUCKDB, events, outcomes],
    }
    counts = {}
    # Alternated, so that the machine's slower and faster moments fall on every tool alike.
    rounds = [{name: timed(command) for name, command in commands.items()} for _ in range(runs)]
    for name in commands:
        measured = [one[name] for one in rounds]
        for seconds, megabytes in ((m[1], m[2]) for m in measured):
            print(f"  {name:14} {seconds:5.2f} s  {megabytes:6.0f} MB")
        wall = statistics.median(m[1] for m in measured)
        memory = statistics.median(m[2] for m in measured)
        print(f"{name:14} {wall:5.2f} s wall  {memory:6.0f} MB peak  (median of {runs})")
        if name != "bench analyze":
            counts[name] = json.loads(measured[0][0])
    document = json.loads((pathlib.Path(out) / "upgrade-analyze/results.json").read_text())
    bench_counts = sorted([e["name"], v["name"], v["exposed"], v["contaminated"], v["firstExposed"]]
                          for e in document["experiments"] for v in e["variants"])
    for name, tool in counts.items():
        print(f"{name} agrees with the bench on the counts: {tool == bench_counts}")


if __name__ == "__main__":
    main()
