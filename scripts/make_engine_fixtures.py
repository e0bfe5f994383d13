#!/usr/bin/env python3
"""Writes what GrowthBook's analysis engine, gbstats 0.8.0 (PyPI), says of a few hundred summary tables.

GrowthBook's results page is computed by gbstats: a frequentist t test, an always-valid sequential
test and, by default, a Bayesian test of the lift, on each variation's summary against the
baseline's. The bench reproduces the three (Sources/Statistics/GrowthBook/); this script asks
gbstats itself, with its own defaults and with settings overridden, and writes
Tests/StatisticsTests/Fixtures/gbstats.json, which GrowthBookEngineTests holds the bench to (1e-9),
so `make test` never needs the package.

The tables span conversions, amounts, ratios and CUPED-adjusted amounts; tiny and huge samples;
zero baselines, constant metrics, all conversions and empty arms; relative and absolute
differences; several variations against one baseline; and the same arms read at growing looks.

Run: python3 scripts/make_engine_fixtures.py   (or `make engine-fixtures`)
It installs the pinned package, with the numpy, scipy and pandas its metadata asks for, into a
virtual environment under .build/gbstats first.
"""
import json
import math
import pathlib
import random

from fixture_numbers import number
from pinned_packages import rerun_with

GBSTATS = "gbstats==0.8.0"
ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "StatisticsTests" / "Fixtures" / "gbstats.json"
ENV = ROOT / ".build" / "gbstats"


def ensure_package():
    """Re-runs this script inside a virtual environment that holds the pinned package."""
    rerun_with([GBSTATS], ENV, "LAB_BENCH_GBSTATS_ENV", __file__)


# MARK: - Summary tables


def proportion(n, conversions):
    return {"kind": "proportion", "n": n, "sum": conversions}


def mean(n, total, squares):
    return {"kind": "mean", "n": n, "sum": total, "sumSquares": squares}


def sample_mean(rng, n, mu, sd):
    """A sample of n normal amounts, summarised: its sum and sum of squares."""
    values = [rng.gauss(mu, sd) for _ in range(n)]
    return mean(n, sum(values), sum(v * v for v in values))


def ratio(n, numerator, denominator, products):
    return {"kind": "ratio", "n": n, "numerator": numerator, "denominator": denominator, "sumOfProducts": products}


def sample_ratio(rng, n, mu, rate):
    """Per device an amount and a count of sessions, summarised with their cross products."""
    amounts = [max(rng.gauss(mu, mu / 2), 0) for _ in range(n)]
    sessions = [1 + int(rng.expovariate(1 / rate)) for _ in range(n)]
    return ratio(
        n,
        mean(n, sum(amounts), sum(a * a for a in amounts)),
        mean(n, sum(sessions), sum(s * s for s in sessions)),
        sum(a * s for a, s in zip(amounts, sessions)),
    )


def cuped(n, post, pre, products):
    return {"kind": "cuped", "n": n, "post": post, "pre": pre, "sumOfProducts": products}


def sample_cuped(rng, n, mu, lift, correlation, binary=False):
    """A post-period metric and its pre-period covariate, correlated, summarised."""
    pre, post = [], []
    for _ in range(n):
        base = rng.gauss(mu, mu / 3)
        if binary:
            pre.append(1.0 if rng.random() < 0.3 else 0.0)
            post.append(1.0 if rng.random() < 0.2 * (1 + lift) + 0.2 * pre[-1] else 0.0)
        else:
            pre.append(base)
            post.append(correlation * base * (1 + lift) + (1 - correlation) * rng.gauss(mu, mu / 3))
    if binary:
        summary = lambda values: proportion(n, sum(values))
    else:
        summary = lambda values: mean(n, sum(values), sum(v * v for v in values))
    return cuped(n, summary(post), summary(pre), sum(a * b for a, b in zip(post, pre)))


def tables():
    """Every (baseline, variations) table, named."""
    rng = random.Random(20261128)
    cases = []
    # Conversions: common and rare rates, small and large lifts, tiny and huge samples.
    for n, rate, lift in [
        (10, 0.3, 0.0), (25, 0.2, 0.5), (100, 0.1, 0.2), (1000, 0.05, 0.1), (5000, 0.5, 0.02),
        (20000, 0.01, 0.15), (100000, 0.2, 0.01), (10_000_000, 0.031, 0.004), (400_000_000, 0.12, 0.0005),
    ]:
        a = round(n * rate)
        b = round(n * rate * (1 + lift))
        cases.append((f"conversion n={n} rate={rate} lift={lift}", proportion(n, a), [proportion(n, b)]))
    for index in range(40):
        n_a, n_b = rng.randint(50, 200000), rng.randint(50, 200000)
        rate = rng.uniform(0.005, 0.9)
        lift = rng.uniform(-0.3, 0.3)
        a = sum(1 for _ in range(n_a) if rng.random() < rate) if n_a < 5000 else round(n_a * rate)
        b = min(n_b, max(0, round(n_b * rate * (1 + lift) + rng.gauss(0, math.sqrt(n_b * rate)))))
        cases.append((f"conversion random {index}", proportion(n_a, a), [proportion(n_b, b)]))
    # Amounts.
    for index in range(40):
        n_a, n_b = rng.randint(3, 50000), rng.randint(3, 50000)
        mu = rng.choice([0.5, 2.5, 40.0, 1200.0])
        sd = mu * rng.uniform(0.2, 4)
        lift = rng.uniform(-0.2, 0.3)
        cases.append((
            f"amount random {index}", sample_mean(rng, n_a, mu, sd), [sample_mean(rng, n_b, mu * (1 + lift), sd)]))
    cases.append(("amount huge n", mean(50_000_000, 1.25e8, 1.1e9), [mean(50_000_000, 1.2535e8, 1.1031e9)]))
    # Ratios (revenue per session).
    for index in range(15):
        n = rng.randint(20, 5000)
        cases.append((
            f"ratio random {index}", sample_ratio(rng, n, 3.0, 2.0),
            [sample_ratio(rng, rng.randint(20, 5000), 3.0 * rng.uniform(0.9, 1.2), 2.0)]))
    # CUPED: amounts and conversions with a pre-period covariate.
    for index in range(15):
        n_a, n_b = rng.randint(30, 4000), rng.randint(30, 4000)
        binary = index % 3 == 0
        lift = rng.uniform(-0.1, 0.2)
        correlation = rng.uniform(0.1, 0.9)
        cases.append((
            f"cuped random {index}", sample_cuped(rng, n_a, 10.0, 0.0, correlation, binary),
            [sample_cuped(rng, n_b, 10.0, lift, correlation, binary)]))
    # A constant covariate: gbstats drops the adjustment (theta 0).
    cases.append((
        "cuped constant covariate", cuped(100, mean(100, 250.0, 900.0), mean(100, 100.0, 100.0), 250.0),
        [cuped(120, mean(120, 330.0, 1300.0), mean(120, 120.0, 120.0), 330.0)]))
    # Several variations against one baseline.
    for index in range(10):
        base_n = rng.randint(1000, 30000)
        rate = rng.uniform(0.02, 0.4)
        arms = [proportion(rng.randint(1000, 30000), 0) for _ in range(rng.randint(2, 4))]
        for arm in arms:
            arm["sum"] = round(arm["n"] * rate * rng.uniform(0.85, 1.2))
        cases.append((f"variations {index}", proportion(base_n, round(base_n * rate)), arms))
    # Sequential looks: the same arms, read as the days add devices.
    for look in range(1, 15):
        n = 700 * look
        cases.append((f"look day {look}", proportion(n, round(n * 0.1)), [proportion(n, round(n * 0.1 * 1.08))]))
    # Edge cases: a zero baseline, a constant metric, every device converting, an empty arm, one device,
    # a baseline far better than the variation, and a tiny difference.
    cases += [
        ("zero baseline", proportion(1000, 0), [proportion(1000, 12)]),
        ("zero both", proportion(1000, 0), [proportion(1000, 0)]),
        ("all convert", proportion(500, 500), [proportion(500, 500)]),
        ("all convert in the variation", proportion(500, 250), [proportion(500, 500)]),
        ("empty variation", proportion(500, 50), [proportion(0, 0)]),
        ("one device each", mean(1, 3.0, 9.0), [mean(1, 4.0, 16.0)]),
        ("two devices each", mean(2, 3.0, 5.0), [mean(2, 4.0, 10.0)]),
        ("constant amounts", mean(100, 200.0, 400.0), [mean(100, 300.0, 900.0)]),
        ("negative baseline mean", mean(400, -800.0, 4000.0), [mean(400, -700.0, 3500.0)]),
        ("variation far worse", proportion(50000, 10000), [proportion(50000, 5000)]),
        ("variation far better", proportion(50000, 5000), [proportion(50000, 10000)]),
        ("tiny difference", proportion(2_000_000, 100_000), [proportion(2_000_000, 100_010)]),
    ]
    return cases


# MARK: - The engine


def statistic(table):
    from gbstats.models.statistics import (
        ProportionStatistic, RatioStatistic, RegressionAdjustedStatistic, SampleMeanStatistic)

    def simple(part):
        if part["kind"] == "proportion":
            return ProportionStatistic(n=part["n"], sum=part["sum"])
        return SampleMeanStatistic(n=part["n"], sum=part["sum"], sum_squares=part["sumSquares"])

    if table["kind"] == "ratio":
        return RatioStatistic(
            n=table["n"], m_statistic=simple(table["numerator"]), d_statistic=simple(table["denominator"]),
            m_d_sum_of_products=table["sumOfProducts"])
    if table["kind"] == "cuped":
        return RegressionAdjustedStatistic(
            n=table["n"], post_statistic=simple(table["post"]), pre_statistic=simple(table["pre"]),
            post_pre_sum_of_products=table["sumOfProducts"], theta=0)
    return simple(table)


# Each setting: the test, its configuration as the fixture names it, and how gbstats takes it.
SETTINGS = [
    ("frequentist", {}),
    ("frequentist", {"differenceType": "absolute"}),
    ("frequentist", {"alpha": 0.1}),
    ("sequential", {}),
    ("sequential", {"sequentialTuningParameter": 100000}),
    ("sequential", {"differenceType": "absolute", "alpha": 0.01}),
    ("sequential", {"alpha": 0.1}),
    ("bayesian", {}),
    ("bayesian", {"differenceType": "absolute"}),
    ("bayesian", {"inverse": True}),
    ("bayesian", {"prior": {"mean": 0.0, "variance": 0.09, "proper": True}}),
    ("bayesian", {"prior": {"mean": 0.05, "variance": 0.01, "proper": True}, "alpha": 0.1}),
]


def run(test, settings, baseline, variation):
    from gbstats.bayesian.tests import EffectBayesianABTest, EffectBayesianConfig, GaussianPrior
    from gbstats.frequentist.tests import (
        FrequentistConfig, SequentialConfig, SequentialTwoSidedTTest, TwoSidedTTest)

    common = {"difference_type": settings.get("differenceType", "relative"), "alpha": settings.get("alpha", 0.05)}
    a, b = statistic(baseline), statistic(variation)
    if test == "frequentist":
        result = TwoSidedTTest(a, b, FrequentistConfig(**common)).compute_result()
    elif test == "sequential":
        config = SequentialConfig(**common, sequential_tuning_parameter=settings.get("sequentialTuningParameter", 5000))
        result = SequentialTwoSidedTTest(a, b, config).compute_result()
    else:
        prior = settings.get("prior")
        config = EffectBayesianConfig(
            **common, inverse=settings.get("inverse", False),
            prior_effect=GaussianPrior(**prior) if prior else GaussianPrior())
        result = EffectBayesianABTest(a, b, config).compute_result()
    output = {
        "expected": number(result.expected),
        "ci": [number(result.ci[0]), number(result.ci[1])],
        "upliftMean": number(result.uplift.mean),
        "upliftStddev": number(result.uplift.stddev),
        "errorMessage": result.error_message,
    }
    if test == "bayesian":
        output["chanceToWin"] = number(result.chance_to_win)
        output["risk"] = [number(result.risk[0]), number(result.risk[1])]
    else:
        output["pValue"] = number(result.p_value)
    return output


def main():
    ensure_package()
    import gbstats  # noqa: F401  (the environment's, pinned)
    import importlib.metadata
    import numpy
    import scipy

    cases = []
    for name, baseline, variations in tables():
        for test, settings in SETTINGS:
            for index, variation in enumerate(variations):
                cases.append({
                    "name": name + (f", variation {index + 1}" if len(variations) > 1 else ""),
                    "test": test,
                    "settings": settings,
                    "baseline": baseline,
                    "variation": variation,
                    "result": run(test, settings, baseline, variation),
                })
    document = {
        "generator": f"gbstats {importlib.metadata.version('gbstats')} "
        f"(numpy {numpy.__version__}, scipy {scipy.__version__})",
        "cases": cases,
    }
    # One case a line: a diff names the cases that changed.
    lines = ",\n  ".join(json.dumps(case, separators=(",", ":")) for case in cases)
    OUT.write_text(f'{{"generator": {json.dumps(document["generator"])},\n "cases": [\n  {lines}\n ]}}\n')
    print(f"wrote {len(cases)} cases to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
