#!/usr/bin/env python3
"""Writes what Eppo's documented sequential method says of a set of experiments.

Eppo publishes its method as formulas, not code (eppo-docs, docs/statistics/
confidence-intervals/statistical-nitty-gritty.md: the lift and its delta-method
variance, equations 6-8; the sequential interval, "Confidence intervals",
"Sequential"). This script evaluates those formulas as they are written, in
the documented order of operations, with mpmath at 60 significant digits, from
per-subject samples drawn with numpy and summarised by numpy (mean and the
n - 1 sample variance): a reference that shares neither arithmetic nor code
with the bench. Run it from the repository's root:

    python3 scripts/make_eppo_fixtures.py

and commit Tests/StatisticsTests/Fixtures/eppo.json.
"""

import json
import pathlib

import mpmath
import numpy as np

from fixture_numbers import number

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "Tests" / "StatisticsTests" / "Fixtures" / "eppo.json"
mpmath.mp.dps = 60


def lift(n_c, m_c, s2_c, n_t, m_t, s2_t):
    """Equations 7 and 8 as printed: m_T / m_C - 1 and (m_T^2 / m_C^2)(s2_C / (n_C m_C^2) + s2_T / (n_T m_T^2)).

    None when the control's mean is 0 (no lift). A treatment mean of 0 takes the expression's limit,
    s2_T / (n_T m_C^2), where the printed order divides 0 by 0."""
    n_c, m_c, s2_c, n_t, m_t, s2_t = (mpmath.mpf(v) for v in (n_c, m_c, s2_c, n_t, m_t, s2_t))
    if m_c == 0:
        return None, None
    estimate = m_t / m_c - 1
    if m_t == 0:
        return estimate, s2_t / (n_t * m_c ** 2)
    variance = (m_t ** 2 / m_c ** 2) * (s2_c / (n_c * m_c ** 2) + s2_t / (n_t * m_t ** 2))
    return estimate, variance


def boundary(t, confidence, n_tune):
    """B and rho of the sequential interval, as printed."""
    t, c, n_tune = mpmath.mpf(t), mpmath.mpf(confidence), mpmath.mpf(n_tune)
    rho = n_tune / (mpmath.log(mpmath.log(mpmath.e / (1 - c) ** 2)) - 2 * mpmath.log(1 - c))
    b = (1 / mpmath.sqrt(t)) * mpmath.sqrt((t + rho) * mpmath.log((t + rho) / (rho * (1 - c) ** 2)))
    return b, rho


def samples(rng, kind, n, centre):
    """n subjects' values: conversions at rate `centre`, or skewed amounts with mean near `centre`."""
    if kind == "conversion":
        return (rng.random(n) < centre).astype(float)
    return rng.gamma(0.5, 2 * centre, n)


def cases():
    rng = np.random.default_rng(20261128)
    settings = [(0.95, 10_000), (0.90, 10_000), (0.99, 10_000), (0.95, 1_000), (0.95, 250_000), (0.8, 50)]
    plans = []
    for kind in ("conversion", "amount"):
        for n_c, n_t in [(2, 2), (3, 5), (40, 37), (500, 480), (5_000, 5_100), (60_000, 59_000), (400_000, 400_321)]:
            for centre, lift_ in [(0.1, 0.0), (0.1, 0.08), (0.45, -0.05), (0.02, 0.3)]:
                plans.append((kind, n_c, n_t, centre, lift_))
    out = []
    for index, (kind, n_c, n_t, centre, lift_) in enumerate(plans):
        control = samples(rng, kind, n_c, centre)
        treatment = samples(rng, kind, n_t, min(centre * (1 + lift_), 1.0) if kind == "conversion" else centre * (1 + lift_))
        m_c, m_t = float(np.mean(control)), float(np.mean(treatment))
        s2_c, s2_t = float(np.var(control, ddof=1)), float(np.var(treatment, ddof=1))
        confidence, n_tune = settings[index % len(settings)]
        out.append(case(kind, n_c, m_c, s2_c, n_t, m_t, s2_t, confidence, n_tune))
    # Summaries at the edges, given directly: a constant arm, every subject converting, huge samples,
    # a treatment with a mean far below the control's.
    for n_c, m_c, s2_c, n_t, m_t, s2_t in [
        (1_000, 1.0, 0.0, 1_000, 1.0, 0.0),
        (1_000, 1.0, 0.0, 1_200, 0.99, 0.99 * 0.01 * 1_200 / 1_199),
        (10, 3.5, 0.0, 10, 4.0, 0.0),
        (200_000_000, 0.1, 0.09, 200_000_000, 0.1001, 0.1001 * 0.8999),
        (50, 12.0, 300.0, 50, 0.5, 2.0),
        (100, 0.0, 0.0, 100, 0.03, 0.03 * 0.97 * 100 / 99),
        (100, 0.05, 0.05 * 0.95 * 100 / 99, 100, 0.0, 0.0),
    ]:
        out.append(case("summary", n_c, m_c, s2_c, n_t, m_t, s2_t, 0.95, 10_000))
    return out


def case(kind, n_c, m_c, s2_c, n_t, m_t, s2_t, confidence, n_tune):
    estimate, variance = lift(n_c, m_c, s2_c, n_t, m_t, s2_t)
    b, rho = boundary(n_c + n_t, confidence, n_tune)
    half = None if variance is None else mpmath.sqrt(variance) * b
    return {
        "kind": kind,
        "control": {"n": n_c, "mean": m_c, "variance": s2_c},
        "treatment": {"n": n_t, "mean": m_t, "variance": s2_t},
        "confidence": confidence,
        "tuningSample": n_tune,
        "lift": number(estimate),
        "variance": number(variance),
        "rho": number(rho),
        "boundary": number(b),
        "lower": None if half is None else number(estimate - half),
        "upper": None if half is None else number(estimate + half),
    }


def main():
    fixture = {
        "generator": f"scripts/make_eppo_fixtures.py (Eppo's documented formulas in mpmath {mpmath.__version__}, samples by numpy {np.__version__})",
        "cases": cases(),
    }
    FIXTURE.write_text(json.dumps(fixture, indent=1) + "\n")
    print(f"wrote {FIXTURE.relative_to(ROOT)}: {len(fixture['cases'])} cases")


if __name__ == "__main__":
    main()
