#!/usr/bin/env python3
"""Writes the sample sizes of the experiment decision from spotify-confidence itself.

The bench decides an experiment as Confidence's risk-aware rule does (docs/statistics.md, "One
decision per experiment") and sizes it with the same allocation of alpha and beta. This script asks
spotify-confidence 4.1.0 (PyPI), with its "spot-1-bonferroni" correction, for the devices a design needs, and
writes Tests/StatisticsTests/Fixtures/decision-sample-size.json; RiskAwareAllocationTests holds the
bench to every number, so `make test` never needs the package.

Run: python3 scripts/make_decision_fixtures.py   (or `make decision-fixtures`)
It installs the pinned package into a virtual environment under .build/confidence first.
"""
import json
import pathlib

from pinned_packages import rerun_with

CONFIDENCE = "spotify-confidence==4.1.0"
ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "StatisticsTests" / "Fixtures" / "decision-sample-size.json"
ENV = ROOT / ".build" / "confidence"


def ensure_package():
    """Re-runs this script inside a virtual environment that holds the pinned package."""
    rerun_with([CONFIDENCE], ENV, "LAB_BENCH_CONFIDENCE_ENV", __file__)


# Each design: its metrics (name, binary, baseline mean, per-device variance, relative planned effect for a
# success metric or relative margin for a guardrail), its treatments, alpha and power. They span one and
# several success metrics, guardrails with and without success metrics, several treatments, rare and
# common rates, amounts, a tiny effect (huge n) and a large one (tiny n).
DESIGNS = [
    ("one-rate", [("converted", True, 0.05, None, 0.1, None)], 1, 0.05, 0.8),
    ("one-amount", [("revenue", False, 2.5, 16.0, 0.1, None)], 1, 0.05, 0.8),
    ("rate-and-guardrail", [("subscribed", True, 0.04, None, 0.1, None),
                            ("revenue", False, 2.5, 10.9, None, 0.02)], 2, 0.05, 0.8),
    ("two-success-two-guardrails", [("subscribed", True, 0.04, None, 0.1, None),
                                    ("converted", True, 0.2, None, 0.05, None),
                                    ("revenue", False, 2.5, 10.9, None, 0.05),
                                    ("crashed", True, 0.01, None, None, 0.1)], 3, 0.05, 0.9),
    ("guardrails-only", [("revenue", False, 10.0, 25.0, None, 0.03),
                         ("retained", True, 0.4, None, None, 0.01)], 1, 0.05, 0.8),
    ("tiny-effect", [("converted", True, 0.001, None, 0.01, None)], 1, 0.01, 0.8),
    ("large-effect", [("converted", True, 0.3, None, 1.0, None)], 1, 0.1, 0.6),
    ("three-treatments-amount", [("revenue", False, 100.0, 40000.0, 0.05, None),
                                 ("sessions", False, 4.0, 9.0, None, 0.02)], 3, 0.05, 0.8),
]


def main():
    ensure_package()
    import pandas as pd
    import spotify_confidence
    from spotify_confidence import SampleSizeCalculator

    designs = []
    for name, metrics, treatments, alpha, power in DESIGNS:
        rows = []
        for metric, binary, mean, variance, mde, nim in metrics:
            rows.append({"metric": metric, "binary": binary, "mean": mean,
                         "variance": mean * (1 - mean) if binary else variance,
                         "mde": mde, "nim": nim, "preference": "increase"})
        frame = pd.DataFrame(rows)
        calculator = SampleSizeCalculator(
            data_frame=frame, point_estimate_column="mean", var_column="variance", is_binary_column="binary",
            interval_size=1 - alpha, correction_method="spot-1-bonferroni", metric_column="metric", power=power)
        weights = [1] * (treatments + 1)
        result = calculator.sample_size(treatment_weights=weights, mde_column="mde", nim_column="nim",
                                        preferred_direction_column="preference")
        per_metric = {}
        for _, row in result.iterrows():
            total = row["required_sample_size_for_metric"]
            # Equal weights: the total over every group, each group a share of it.
            per_metric[row["metric"]] = None if total is None else int(round(float(total) / len(weights)))
        designs.append({
            "name": name, "treatments": treatments, "alpha": alpha, "power": power,
            "metrics": [{"name": r["metric"], "binary": bool(r["binary"]), "mean": r["mean"], "variance": r["variance"],
                         "mde": r["mde"], "nim": r["nim"], "perVariant": per_metric[r["metric"]]} for r in rows],
            "perVariant": max(v for v in per_metric.values() if v is not None),
        })
    OUT.write_text(json.dumps({"generator": f"spotify-confidence {spotify_confidence.__version__}" if hasattr(
        spotify_confidence, "__version__") else CONFIDENCE, "designs": designs}, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
