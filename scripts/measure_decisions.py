#!/usr/bin/env python3
"""Measures how often the report's decisions are right, on every committed scenario, with the decision
rule of this tree and, given a second bench, with an earlier rule: the tables of docs/statistics.md
("The decision rule, measured").

    python3 scripts/measure_decisions.py [--replications 1000] [--before BENCH] [--before-results DIR]
        [--after-results DIR] [--experiments]

With --experiments it prints the experiments' one decision instead (docs/statistics.md, "One decision
per experiment"): from the same replications, what the first success metric's recommendation did (what
the report's first line said before) and what the experiment's decision does.

It builds this tree's bench in release and runs `bench SCENARIO --replications N --threads 1` on each
scenario (--threads 1 so that two scenarios never share a core's measurements; the figures do not
depend on it). BENCH is a bench built from an earlier commit, e.g. the one before the decision rule:

    git worktree add /tmp/before 58bcf9a
    (cd /tmp/before && swift build -c release --product bench)
    python3 scripts/measure_decisions.py --before /tmp/before/.build/release/bench

--before-results reads that bench's results from a folder of an earlier run instead
(DIR/<scenario>/results.json, as `bench SCENARIO --replications N --out DIR` writes them), and
--after-results this tree's.

The earlier rule's verdicts were winner, no winner or not trustworthy: a winner counts as a ship
(right when its true lift is above 0), "no winner" as keeping the baseline or running on, "not
trustworthy" as withheld. Its results.json kept no per-replication signs, so its wrong-sign column is
empty. Each rate has its 95% Wilson interval, as the bench computes it.
"""
import argparse
import json
import math
import pathlib
import subprocess
import tempfile

from measure_statistics import bench

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(executable, scenario, replications, out):
    subprocess.run([str(executable), str(scenario), "--replications", str(replications), "--threads", "1",
                    "--out", str(out), "--quiet"], check=True)
    return json.loads((out / scenario.stem / "results.json").read_text())


def wilson(count, total, z=1.959963984540054):
    if total == 0:
        return None
    p = count / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - half, centre + half


def cell(count, total):
    if count is None:
        return "–"
    interval = wilson(count, total)
    return f"{100 * count / total:.1f}% ({100 * interval[0]:.1f}–{100 * interval[1]:.1f})"


def after_rows(results):
    """Per experiment and metric: right ship, wrong ship, no ship, withheld, wrong sign, as counts."""
    rows = []
    for experiment in results["calibration"]["experiments"]:
        for metric in experiment["metrics"]:
            decisions = metric.get("decisions")
            if decisions is None:
                continue
            total = decisions["rightShip"]["of"]
            no_ship = decisions["keepBaseline"]["count"] + decisions["inconclusive"]["count"]
            rows.append((experiment["name"], metric["metric"], total, decisions["rightShip"]["count"],
                         decisions["wrongShip"]["count"], no_ship, decisions["withheld"]["count"],
                         decisions["wrongSign"]["count"]))
    return rows


def before_rows(results):
    rows = []
    replications = results["calibration"]["replications"]
    for experiment in results["calibration"]["experiments"]:
        for metric in experiment["metrics"]:
            truth = {comparison["variant"]: comparison["trueLift"] for comparison in metric["comparisons"]}
            if any(value is None for value in truth.values()):
                continue
            right = wrong = 0
            for variant, rate in metric["winnerRates"].items():
                count = round(rate * replications)
                if truth.get(variant, 0) > 1e-12:
                    right += count
                else:
                    wrong += count
            rows.append((experiment["name"], metric["metric"], replications, right, wrong,
                         round(metric["noWinnerRate"] * replications), round(metric["notTrustworthyRate"] * replications),
                         None))
    return rows


def experiment_rows(results):
    """Per experiment: the one decision's right ship, wrong ship, keep baseline, keep running, withheld and
    wrong sign, as counts, with the decision's mean sample per variant and the plan's mean smallest arm; and,
    from the same replications, what the per-metric recommendation of its first success metric did, which is
    what the report's first line per experiment said before there was one decision."""
    before, after = [], []
    first_success = {experiment["name"]: (experiment.get("decision") or {}).get("successMetrics", [None])[0]
                     for experiment in results["experiments"]}
    for experiment in results["calibration"]["experiments"]:
        decision = experiment.get("decision")
        if decision is None or not decision["knowsTruth"]:
            continue
        total = decision["rightShip"]["of"]
        after.append((experiment["name"], total, decision["rightShip"]["count"], decision["wrongShip"]["count"],
                      decision["keepBaseline"]["count"], decision["keepRunning"]["count"], decision["withheld"]["count"],
                      decision["wrongSign"]["count"], decision["devicesPerVariant"], decision["smallestArm"]))
        metric = next((m for m in experiment["metrics"] if m["metric"] == first_success.get(experiment["name"])), None)
        rates = metric and metric.get("decisions")
        if rates:
            before.append((experiment["name"], metric["metric"], total, rates["rightShip"]["count"],
                           rates["wrongShip"]["count"], rates["keepBaseline"]["count"], rates["inconclusive"]["count"],
                           rates["withheld"]["count"], rates["wrongSign"]["count"]))
    return before, after


def experiment_tables(rows_by_scenario):
    print("#### Before: the first success metric's recommendation\n")
    print("| Scenario | Experiment | Metric | Right ship | Wrong ship | Keep baseline | Keep running | Withheld | Wrong sign |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for scenario, (before, _) in rows_by_scenario:
        for experiment, metric, total, *counts in before:
            print(f"| {scenario} | {experiment} | {metric} | " + " | ".join(cell(c, total) for c in counts) + " |")
    print("\n#### After: the experiment's one decision\n")
    print("| Scenario | Experiment | Right ship | Wrong ship | Keep baseline | Keep running | Withheld | Wrong sign "
          "| Decision's sample | Smallest arm |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for scenario, (_, after) in rows_by_scenario:
        for experiment, total, *rest in after:
            counts, needed, smallest = rest[:6], rest[6], rest[7]
            print(f"| {scenario} | {experiment} | " + " | ".join(cell(c, total) for c in counts)
                  + f" | {'–' if needed is None else f'{needed:,}'} | {smallest:,} |")
    print()


def table(title, rows_by_scenario):
    print(f"#### {title}\n")
    print("| Scenario | Experiment | Metric | Right ship | Wrong ship | No ship | Withheld | Wrong sign |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for scenario, rows in rows_by_scenario:
        for experiment, metric, total, right, wrong, none, withheld, sign in rows:
            print(f"| {scenario} | {experiment} | {metric} | {cell(right, total)} | {cell(wrong, total)} | "
                  f"{cell(none, total)} | {cell(withheld, total)} | {cell(sign, total)} |")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replications", type=int, default=1000)
    parser.add_argument("--before", help="a bench built from an earlier commit")
    parser.add_argument("--before-results", help="a folder with that bench's results, one folder per scenario")
    parser.add_argument("--after-results", help="a folder with this tree's results, one folder per scenario")
    parser.add_argument("--experiments", action="store_true",
                        help="the experiments' one decision, before (the first success metric's recommendation) and after")
    arguments = parser.parse_args()
    if arguments.experiments:
        executable = None if arguments.after_results else bench()
        rows = []
        with tempfile.TemporaryDirectory() as folder:
            for scenario in sorted((ROOT / "scenarios").glob("*.json")):
                if arguments.after_results:
                    results = json.loads((pathlib.Path(arguments.after_results) / scenario.stem / "results.json").read_text())
                else:
                    results = run(executable, scenario, arguments.replications, pathlib.Path(folder))
                rows.append((scenario.stem, experiment_rows(results)))
        experiment_tables(rows)
        return
    executable = None if arguments.after_results else bench()
    scenarios = sorted((ROOT / "scenarios").glob("*.json"))
    before, after = [], []
    with tempfile.TemporaryDirectory() as folder:
        work = pathlib.Path(folder)
        for scenario in scenarios:
            if arguments.after_results:
                path = pathlib.Path(arguments.after_results) / scenario.stem / "results.json"
                after.append((scenario.stem, after_rows(json.loads(path.read_text()))))
            else:
                after.append((scenario.stem, after_rows(run(executable, scenario, arguments.replications, work / "after"))))
            if arguments.before_results:
                path = pathlib.Path(arguments.before_results) / scenario.stem / "results.json"
                before.append((scenario.stem, before_rows(json.loads(path.read_text()))))
            elif arguments.before:
                before.append((scenario.stem, before_rows(run(arguments.before, scenario, arguments.replications,
                                                              work / "before"))))
    if before:
        table("The rule before (winner, no winner, not trustworthy)", before)
    table("The decision rule", after)


if __name__ == "__main__":
    main()
