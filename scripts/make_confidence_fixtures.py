#!/usr/bin/env python3
"""Writes what Spotify's analysis engine, spotify-confidence 4.1.0 (PyPI), says of a few hundred summary tables.

Confidence compares every treatment with the control on every metric by a z test of the difference of
means: success metrics for an increase, guardrails against their non-inferiority margin, with the
"spot-1-bonferroni" correction (alpha split over treatments and success metrics only) and, when the
experiment is read day after day towards a planned sample, group-sequential bounds from its port of
ldbounds' Lan-DeMets solver. The bench reproduces it (Sources/Statistics/Confidence/); this script asks
spotify-confidence itself and writes Tests/StatisticsTests/Fixtures/confidence.json, which
ConfidenceEngineTests holds the bench to (1e-9), so `make test` never needs the package.

The tables span conversions and amounts; tiny and huge samples; a zero baseline; constant metrics;
all conversions; one to three treatments; one to three metrics, each a success metric, a guardrail or
two-sided; fixed-horizon reads and sequential reads of up to twelve looks, some adding nothing,
some passing the planned sample; and tables with a pre-experiment feature, which Confidence's
`ZTestLinreg` (its CUPED) regresses out. The bounds themselves are also written for information
ratios alone.

Run: python3 scripts/make_confidence_fixtures.py   (or `make confidence-fixtures`)
It installs the pinned package into a virtual environment under .build/confidence first.
"""
import json
import pathlib
import random
import warnings

from fixture_numbers import number
from pinned_packages import rerun_with

CONFIDENCE = "spotify-confidence==4.1.0"
ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "StatisticsTests" / "Fixtures" / "confidence.json"
ENV = ROOT / ".build" / "confidence"


def ensure_package():
    """Re-runs this script inside a virtual environment that holds the pinned package."""
    rerun_with([CONFIDENCE], ENV, "LAB_BENCH_CONFIDENCE_ENV", __file__)


# MARK: - Summary tables


def conversions(rng, n, rate):
    converted = n if rate >= 1 else sum(1 for _ in range(n) if rng.random() < rate)
    return {"n": n, "sum": converted, "sumSquares": converted}


def amounts(rng, n, mu, sd):
    values = [max(0.0, rng.gauss(mu, sd)) for _ in range(n)]
    return {"n": n, "sum": sum(values), "sumSquares": sum(v * v for v in values)}


def grown(summary, factor):
    """The same arm after `factor` times as many devices, with the same mean and spread (a later look)."""
    return {"n": summary["n"] * factor, "sum": summary["sum"] * factor, "sumSquares": summary["sumSquares"] * factor}


def with_feature(rng, n, outcome_mean, binary):
    """An arm's sums with a pre-experiment feature x, correlated with the metric y: Σx, Σx², Σxy."""
    xs, ys = [], []
    for _ in range(n):
        x = max(0.0, rng.gauss(10.0, 4.0))
        if binary:
            y = 1.0 if rng.random() < min(1.0, max(0.0, outcome_mean * (0.5 + x / 20.0))) else 0.0
        else:
            y = max(0.0, outcome_mean * (0.4 + 0.06 * x) + rng.gauss(0, outcome_mean * 0.3))
        xs.append(x)
        ys.append(y)
    return {"n": n, "sum": sum(ys), "sumSquares": sum(y * y for y in ys), "feature": {
        "sum": sum(xs), "sumSquares": sum(x * x for x in xs), "crossSum": sum(x * y for x, y in zip(xs, ys))}}


def linreg_cases(rng):
    cases = []
    for index in range(40):
        roles = metric_roles(rng, rng.choice([1, 2]))
        arms = rng.choice([2, 3])
        n = rng.choice([50, 400, 3000])
        lifts = [0.0] + [rng.choice([0.0, 0.05, 0.2]) for _ in range(arms - 1)]
        looks = 1 if index < 28 else rng.randint(2, 6)
        first = [{m["name"]: with_feature(rng, n, (0.2 if m["binary"] else 5.0) * (1 + lift), m["binary"]) for m in roles}
                 for lift in lifts]
        tables = []
        for look in range(1, looks + 1):
            tables.append([{name: dict(summary, n=summary["n"] * look, sum=summary["sum"] * look,
                                       sumSquares=summary["sumSquares"] * look,
                                       feature={key: value * look for key, value in summary["feature"].items()})
                            for name, summary in arm.items()} for arm in first])
        cases.append({"name": f"linreg-{index}", "interval": rng.choice([0.95, 0.9]), "metrics": roles, "looks": tables,
                      "finalExpectedSampleSize": None if looks == 1 else int(n * 2 * looks * rng.choice([1.0, 2.0]))})
    return cases


def metric_roles(rng, count):
    roles = []
    for index in range(count):
        kind = rng.choice(["success", "success", "guardrail", "two-sided"])
        roles.append({
            "name": f"m{index}",
            "binary": rng.random() < 0.5,
            "nim": rng.choice([0.01, 0.05, 0.1]) if kind == "guardrail" else None,
            "preference": None if kind == "two-sided" else "increase",
        })
    return roles


def random_arm(rng, metric, n, lift):
    if metric["binary"]:
        return conversions(rng, n, min(1.0, metric["base"] * (1 + lift)))
    return amounts(rng, n, metric["base"] * (1 + lift), metric["sd"])


def fixed_cases(rng):
    cases = []
    for index in range(140):
        roles = metric_roles(rng, rng.choice([1, 1, 2, 3]))
        for metric in roles:
            metric["base"] = rng.choice([0.02, 0.1, 0.3]) if metric["binary"] else rng.choice([1.0, 5.0, 40.0])
            metric["sd"] = metric["base"] * rng.choice([0.5, 1.0, 2.0])
        arms = rng.choice([2, 2, 3, 4])
        n = rng.choice([20, 200, 2000, 20000])
        lifts = [0.0] + [rng.choice([-0.1, 0.0, 0.05, 0.2]) for _ in range(arms - 1)]
        table = [{m["name"]: random_arm(rng, m, n + rng.randint(0, n // 10), lift) for m in roles} for lift in lifts]
        cases.append({"name": f"fixed-{index}", "interval": rng.choice([0.95, 0.9, 0.99]), "metrics": roles,
                      "looks": [table], "finalExpectedSampleSize": None})
    # Edges: huge samples, all conversions in a treatment, a constant amount in both arms, a single tiny arm.
    huge = [{"m0": {"n": 40_000_000, "sum": 4_000_000, "sumSquares": 4_000_000}},
            {"m0": {"n": 40_000_123, "sum": 4_003_000, "sumSquares": 4_003_000}}]
    cases.append({"name": "huge", "interval": 0.95, "finalExpectedSampleSize": None, "looks": [huge],
                  "metrics": [{"name": "m0", "binary": True, "nim": None, "preference": "increase"}]})
    every = [{"m0": {"n": 50, "sum": 40, "sumSquares": 40}}, {"m0": {"n": 50, "sum": 50, "sumSquares": 50}}]
    cases.append({"name": "all-conversions", "interval": 0.95, "finalExpectedSampleSize": None, "looks": [every],
                  "metrics": [{"name": "m0", "binary": True, "nim": None, "preference": "increase"}]})
    constant = [{"m0": {"n": 30, "sum": 90.0, "sumSquares": 270.0}}, {"m0": {"n": 40, "sum": 120.0, "sumSquares": 360.0}}]
    cases.append({"name": "constant-amounts", "interval": 0.95, "finalExpectedSampleSize": None, "looks": [constant],
                  "metrics": [{"name": "m0", "binary": False, "nim": 0.05, "preference": "increase"}]})
    tiny = [{"m0": {"n": 2, "sum": 3.0, "sumSquares": 5.0}}, {"m0": {"n": 3, "sum": 9.0, "sumSquares": 29.0}}]
    cases.append({"name": "tiny", "interval": 0.95, "finalExpectedSampleSize": None, "looks": [tiny],
                  "metrics": [{"name": "m0", "binary": False, "nim": None, "preference": None}]})
    return cases


def sequential_cases(rng):
    cases = []
    for index in range(90):
        roles = metric_roles(rng, rng.choice([1, 2, 3]))
        for metric in roles:
            metric["base"] = rng.choice([0.05, 0.2]) if metric["binary"] else rng.choice([2.0, 10.0])
            metric["sd"] = metric["base"] * rng.choice([0.7, 1.5])
        arms = rng.choice([2, 2, 3])
        daily = rng.choice([100, 500, 3000])
        lifts = [0.0] + [rng.choice([-0.1, 0.0, 0.1, 0.3]) for _ in range(arms - 1)]
        days = rng.randint(1, 12)
        # Day by day, each arm's counts grow; a day may add nothing (a weekend without traffic).
        first = [{m["name"]: random_arm(rng, m, daily, lift) for m in roles} for lift in lifts]
        looks, factor = [], 1
        for day in range(days):
            if day > 0 and rng.random() > 0.15:
                factor += 1
            looks.append([{name: grown(summary, factor) for name, summary in arm.items()} for arm in first])
        planned = rng.choice([0.5, 1.0, 1.5, 3.0]) * daily * 2 * days
        cases.append({"name": f"sequential-{index}", "interval": rng.choice([0.95, 0.9]), "metrics": roles,
                      "looks": looks, "finalExpectedSampleSize": int(planned)})
    return cases


def bound_cases(rng):
    cases = []
    for index in range(60):
        count = rng.randint(1, 30)
        points = sorted(rng.uniform(0.01, 1.0) for _ in range(count))
        if rng.random() < 0.3:
            points[-1] = 1.0
        if rng.random() < 0.2 and count > 2:
            points[1] = points[0]
        cases.append({"t": points, "alpha": rng.choice([0.05, 0.1, 0.01, 0.025, 0.0125]), "sides": rng.choice([1, 2])})
    cases.append({"t": [1.0], "alpha": 0.05, "sides": 2})
    cases.append({"t": [i / 100 for i in range(1, 101)], "alpha": 0.05, "sides": 2})
    cases.append({"t": [1e-4, 0.5, 1.0], "alpha": 0.05, "sides": 1})
    return cases


# MARK: - spotify-confidence


def frame_for(case):
    import pandas as pd
    rows = []
    for day, table in enumerate(case["looks"], start=1):
        for arm, metrics in enumerate(table):
            for metric in case["metrics"]:
                summary = metrics[metric["name"]]
                rows.append({"day": day, "group": "control" if arm == 0 else f"treatment{arm}",
                             "metric": metric["name"], "n": summary["n"], "sum": summary["sum"],
                             "sumsq": summary["sumSquares"],
                             **({"feature": summary["feature"]["sum"], "feature_sumsq": summary["feature"]["sumSquares"],
                                 "feature_cross": summary["feature"]["crossSum"]} if "feature" in summary else {}),
                             "non_inferiority_margin": metric["nim"], "preferred_direction": metric["preference"],
                             "planned": case["finalExpectedSampleSize"]})
    return pd.DataFrame(rows)


def compare(case):
    from spotify_confidence import ZTest, ZTestLinreg
    frame = frame_for(case)
    sequential = case["finalExpectedSampleSize"] is not None
    if not sequential:
        frame = frame.drop(columns=["day", "planned"])
    options = dict(categorical_group_columns="group", ordinal_group_column="day" if sequential else None,
                   metric_column="metric", treatment_column="group", correction_method="spot-1-bonferroni",
                   interval_size=case["interval"])
    if "feature" in frame:
        test = ZTestLinreg(frame, "sum", "sumsq", "n", "feature", "feature_sumsq", "feature_cross", **options)
    else:
        test = ZTest(frame, "sum", "sumsq", "n", **options)
    try:
        result = test.multiple_difference(
            level="control", groupby=["day", "metric"] if sequential else "metric", level_as_reference=True,
            non_inferiority_margins=True, final_expected_sample_size_column="planned" if sequential else None,
            verbose=True)
    except Exception as error:  # the engine refuses the table: the bench must too
        return {"error": type(error).__name__}
    rows = []
    for _, row in result.iterrows():
        rows.append({
            "day": int(row["day"]) if sequential else 1, "metric": row["metric"], "treatment": row["level_2"],
            "difference": number(row["difference"]), "standardError": number(row["std_err"]),
            "nullHypothesis": number(row["null_hypothesis"]), "alpha": number(row["alpha"]),
            "adjustedAlpha": number(row["adjusted_alpha"]),
            "pValue": number(row["p-value"]), "adjustedPValue": number(row["adjusted p-value"]),
            "significant": bool(row["is_significant"]),
            "lower": number(row["ci_lower"]), "upper": number(row["ci_upper"]),
            "adjustedLower": number(row["adjusted ci_lower"]), "adjustedUpper": number(row["adjusted ci_upper"]),
        })
    return {"rows": rows}


def bound(case):
    import numpy as np
    from spotify_confidence.analysis.frequentist.confidence_computers.z_test_computer import sequential_bounds
    try:
        result = sequential_bounds(np.array(case["t"]), alpha=case["alpha"], sides=case["sides"])
    except Exception as error:
        return {"error": type(error).__name__}
    return {"bounds": [number(z) for z in result.bounds]}


def main():
    ensure_package()
    warnings.simplefilter("ignore")
    rng = random.Random(20261128)
    comparisons = []
    for case in fixed_cases(rng) + sequential_cases(rng) + linreg_cases(rng):
        comparisons.append(dict(case, expected=compare(case)))
    bounds = [dict(case, expected=bound(case)) for case in bound_cases(rng)]
    with OUT.open("w") as out:
        out.write('{"generator": "%s",\n "bounds": [\n' % CONFIDENCE)
        out.write(",\n".join(json.dumps(case, separators=(",", ":")) for case in bounds))
        out.write('],\n "comparisons": [\n')
        out.write(",\n".join(json.dumps(case, separators=(",", ":")) for case in comparisons))
        out.write("]}\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(bounds)} bound cases, {len(comparisons)} tables")


if __name__ == "__main__":
    main()
