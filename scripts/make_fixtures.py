#!/usr/bin/env python3
"""Writes the reference values the Statistics tests compare with.

Every number comes from scipy or statsmodels, implementations independent of
GSL, so a passing test means two libraries agree. statsmodels is installed from
PyPI into .build/fixture-packages on the first run. Run it from the repository's root:

    python3 scripts/make_fixtures.py
    python3 scripts/make_fixtures.py retrodesign   # only retrodesign.json, with scipy alone
    python3 scripts/make_fixtures.py skewness      # only Tests/AnalysisTests/Fixtures/skewness.json

and commit the files it writes under Tests/StatisticsTests/Fixtures/ and
Tests/AnalysisTests/Fixtures/.
"""

import json
import math
import pathlib
import sys

import numpy as np
import scipy
from scipy import special, stats

from pinned_packages import rerun_with

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Tests" / "StatisticsTests" / "Fixtures"
STATSMODELS = "statsmodels==0.15.0"
ENV = ROOT / ".build" / "fixture-packages"


def ensure_statsmodels():
    """Re-runs this script in a virtual environment that sees the system's scipy
    and holds the pinned statsmodels, installed from PyPI on the first run."""
    rerun_with([STATSMODELS], ENV, "LAB_BENCH_FIXTURE_ENV", __file__, system_site_packages=True)


def distributions():
    """Tail probabilities and quantiles, from the centre to far in the tails."""
    normal_points = [-40.0, -8.5, -3.0, -1.959963984540054, -0.5, 0.0, 0.5, 1.0, 1.959963984540054, 3.0, 8.5, 37.5]
    chi_square_points = [
        (0.0, 1.0), (0.42, 1.0), (3.841458820694124, 1.0), (10.0, 2.0), (3.1, 3.0),
        (150.0, 4.0), (1500.0, 1.0), (1e-8, 1.0), (99.5, 100.0),
    ]
    quantile_points = [1e-300, 1e-12, 0.001, 0.025, 0.5, 0.8, 0.975, 0.999, 1 - 1e-12]
    log_beta_points = [(1.0, 1.0), (0.5, 0.5), (2.0, 3.0), (618.0, 11728.0), (1e-3, 1e6), (1e5, 2e5)]
    # bench fit's quadrature: equal-mass points of the activity distributions it searches.
    beta_quantile_points = [
        (0.0025, 0.875, 1.625), (0.5, 0.875, 1.625), (0.9975, 0.875, 1.625), (0.5, 2.0, 3.0), (0.97, 0.02, 5.0),
        (0.99, 0.02, 5.0), (0.5, 5000.0, 5000.0), (0.999, 0.3, 0.3),
    ]
    return {
        "generator": f"scipy {scipy.__version__}",
        "normalCDF": [{"z": z, "p": float(stats.norm.cdf(z))} for z in normal_points],
        "normalSurvival": [{"z": z, "p": float(stats.norm.sf(z))} for z in normal_points],
        "normalQuantile": [{"p": p, "z": float(stats.norm.ppf(p))} for p in quantile_points],
        "chiSquareSurvival": [
            {"x": x, "df": df, "p": float(stats.chi2.sf(x, df))} for x, df in chi_square_points
        ],
        "logBeta": [{"a": a, "b": b, "value": float(special.betaln(a, b))} for a, b in log_beta_points],
        "betaQuantile": [
            {"p": p, "a": a, "b": b, "x": float(stats.beta.ppf(p, a, b))} for p, a, b in beta_quantile_points
        ],
    }


def number(value):
    """A finite float, or None where the reference has no value (NaN or infinity)."""
    value = float(value)
    return value if math.isfinite(value) else None


def two_proportion_z():
    """z from its formula; the p-value independently, from scipy's chi-square test
    of independence without correction, whose statistic is z squared."""
    cases = [
        (617, 12345, 700, 12300), (10, 100, 20, 100), (0, 100, 5, 100), (1, 1, 0, 1), (3, 40, 3, 40),
        (0, 100, 0, 100), (100, 100, 100, 100), (0, 0, 1, 10), (0, 100000, 5000, 100000),
        (50_000_000, 1_000_000_000, 50_030_000, 1_000_000_000),
    ]
    rows = []
    for x1, n1, x2, n2 in cases:
        row = {"controlSuccesses": x1, "controlTrials": n1, "treatmentSuccesses": x2, "treatmentTrials": n2}
        pooled = (x1 + x2) / (n1 + n2) if n1 and n2 else None
        if pooled is None or pooled in (0, 1):
            row.update(statistic=None, pValue=None)
        else:
            se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
            row["statistic"] = (x2 / n2 - x1 / n1) / se
            table = [[x1, n1 - x1], [x2, n2 - x2]]
            row["pValue"] = float(stats.chi2_contingency(table, correction=False).pvalue)
        rows.append(row)
    return rows


def chi_square_independence():
    cases = [
        ([617, 700], [12345, 12300]), ([10, 20, 30], [100, 100, 100]), ([5, 9, 4, 12], [50, 60, 40, 70]),
        ([0, 3], [10, 10]), ([0, 0], [10, 10]), ([10, 10], [10, 10]), ([5], [10]), ([5, 0], [10, 0]),
        ([49_990_000, 50_010_000, 50_000_000], [1_000_000_000] * 3),
    ]
    rows = []
    for successes, trials in cases:
        row = {"successes": successes, "trials": trials}
        groups = [(s, n) for s, n in zip(successes, trials) if n > 0]
        total_s = sum(s for s, _ in groups)
        total_f = sum(n - s for s, n in groups)
        if len(groups) < 2 or total_s == 0 or total_f == 0:
            row.update(statistic=None, df=None, pValue=None)
        else:
            result = stats.chi2_contingency([[s, n - s] for s, n in groups], correction=False)
            row.update(statistic=float(result.statistic), df=float(result.dof), pValue=float(result.pvalue))
        rows.append(row)
    return rows


def fisher_exact():
    cases = [(3, 1, 1, 3), (1, 9, 11, 3), (0, 5, 5, 0), (2, 7, 8, 2), (0, 10, 0, 10), (5, 0, 5, 0), (1, 0, 0, 1),
             (12, 5, 7, 9), (20, 180, 40, 160)]
    rows = []
    for a, b, c, d in cases:
        result = stats.fisher_exact([[a, b], [c, d]])
        rows.append({"a": a, "b": b, "c": c, "d": d,
                     "statistic": number(result.statistic) if b * c else None, "pValue": float(result.pvalue)})
    return rows


def wilson():
    rows = []
    for k, n, confidence in [(617, 12345, 0.95), (0, 10, 0.95), (10, 10, 0.95), (1, 1, 0.95), (0, 1, 0.99),
                             (5, 100, 0.9), (500_000_000, 1_000_000_000, 0.95)]:
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
        rows.append({"successes": k, "trials": n, "confidence": confidence, "lower": ci.low, "upper": ci.high})
    return rows


def difference_interval():
    """Newcombe's hybrid score interval for p2 - p1, from statsmodels (method "newcomb")."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    rows = []
    for x1, n1, x2, n2, confidence in [(617, 12345, 700, 12300, 0.95), (0, 10, 10, 10, 0.95), (5, 100, 5, 100, 0.95),
                                       (10, 10, 10, 10, 0.95), (0, 20, 0, 30, 0.9), (1, 2, 2, 2, 0.99)]:
        low, high = confint_proportions_2indep(x2, n2, x1, n1, method="newcomb", compare="diff", alpha=1 - confidence)
        rows.append({"controlSuccesses": x1, "controlTrials": n1, "treatmentSuccesses": x2, "treatmentTrials": n2,
                     "confidence": confidence, "lower": float(low), "upper": float(high)})
    return rows


def mean_interval():
    """m +- t s / sqrt(n) with n - 1 degrees of freedom, from scipy's t.interval."""
    rows = []
    for n, mean, variance, confidence in [(2, 1.0, 0.5, 0.95), (5, 3.2, 4.0, 0.95), (30, 10.0, 25.0, 0.9),
                                          (12345, 1.92, 31.4, 0.95)]:
        low, high = stats.t.interval(confidence, n - 1, loc=mean, scale=math.sqrt(variance / n))
        rows.append({"n": n, "mean": mean, "variance": variance, "confidence": confidence, "lower": low, "upper": high})
    return rows


def relative_lift():
    """The delta method for m2/m1 - 1, from its formula with scipy's normal quantile."""
    rows = []
    cases = [((12345, 0.04998, 0.04748), (12300, 0.05691, 0.05367)), ((100, 1.9, 31.4), (120, 2.3, 40.0)),
             ((50, 1.0, 0.0), (50, 1.5, 0.0)), ((1000, 2.0, 4.0), (1000, 0.0, 0.0))]
    for (n1, m1, v1), (n2, m2, v2) in cases:
        variance = (v2 / n2) / m1**2 + m2**2 * (v1 / n1) / m1**4
        half = stats.norm.isf(0.025) * math.sqrt(variance)
        lift = m2 / m1 - 1
        rows.append({"control": [n1, m1, v1], "treatment": [n2, m2, v2], "confidence": 0.95,
                     "lift": lift, "lower": lift - half, "upper": lift + half})
    return rows


def wilson_ratio():
    """MOVER-R (Donner and Zou 2012) for p2/p1 - 1 from scipy's Wilson intervals of each rate."""
    rows = []
    cases = [(617, 12345, 700, 12300, 0.95), (10, 10, 10, 10, 0.95), (50, 50, 40, 50, 0.95), (3, 40, 0, 40, 0.95),
             (1, 100, 4, 100, 0.95), (2, 2, 1, 2, 0.9), (48, 958, 30, 1042, 0.99), (5000, 100000, 5100, 100000, 0.95)]
    for x1, n1, x2, n2, confidence in cases:
        c = stats.binomtest(x1, n1).proportion_ci(confidence_level=confidence, method="wilson")
        t = stats.binomtest(x2, n2).proportion_ci(confidence_level=confidence, method="wilson")
        p1, p2 = x1 / n1, x2 / n2
        l1, u1 = (0.0 if x2 == 0 else t.low), (1.0 if x2 == n2 else t.high)   # numerator: the treatment
        l2, u2 = (0.0 if x1 == 0 else c.low), (1.0 if x1 == n1 else c.high)   # denominator: the control
        lower = (p1 * p2 - math.sqrt(max((p1 * p2) ** 2 - l1 * u2 * (2 * p2 - l1) * (2 * p1 - u2), 0))) / (u2 * (2 * p1 - u2))
        upper = (p1 * p2 + math.sqrt(max((p1 * p2) ** 2 - u1 * l2 * (2 * p2 - u1) * (2 * p1 - l2), 0))) / (l2 * (2 * p1 - l2))
        rows.append({"controlSuccesses": x1, "controlTrials": n1, "treatmentSuccesses": x2, "treatmentTrials": n2,
                     "confidence": confidence, "lift": p2 / p1 - 1, "lower": max(lower, 0) - 1, "upper": upper - 1})
    return rows


def log_ratio():
    """exp(log(m2/m1) +- t sqrt(a1 + a2)) - 1, a = s^2/(n m^2), Welch-Satterthwaite df, scipy's t quantile."""
    rows = []
    cases = [((12345, 1.92, 31.4), (12300, 2.01, 33.0)), ((10, 5.0, 2.0), (12, 6.5, 4.5)), ((2, 1.0, 0.5), (2, 3.0, 1.0)),
             ((50, 1.0, 0.0), (50, 1.5, 0.3)), ((100, 1.9, 31.4), (120, 2.3, 40.0))]
    for (n1, m1, v1), (n2, m2, v2) in cases:
        a1, a2 = v1 / (n1 * m1 * m1), v2 / (n2 * m2 * m2)
        df = (a1 + a2) ** 2 / (a1 ** 2 / (n1 - 1) + a2 ** 2 / (n2 - 1))
        half = stats.t.isf(0.025, df) * math.sqrt(a1 + a2)
        log_ratio = math.log(m2 / m1)
        rows.append({"control": [n1, m1, v1], "treatment": [n2, m2, v2], "confidence": 0.95, "lift": m2 / m1 - 1,
                     "lower": math.exp(log_ratio - half) - 1, "upper": math.exp(log_ratio + half) - 1})
    return rows


def non_inferiority():
    """One-sided tests of m2/m1 > 1 - margin on the log scale: rates from statsmodels'
    test_proportions_2indep(compare="ratio", method="log", alternative="larger"), means from the
    formula with scipy's t distribution and Welch-Satterthwaite degrees of freedom."""
    from statsmodels.stats.proportion import test_proportions_2indep

    rates = []
    for x1, n1, x2, n2, margin in [(1000, 10000, 950, 10000, 0.05), (1000, 10000, 1000, 10000, 0.02),
                                   (300, 1000, 250, 1000, 0.1), (50, 120, 61, 130, 0.2), (5, 40, 1, 40, 0.5)]:
        result = test_proportions_2indep(x2, n2, x1, n1, value=1 - margin, method="log", compare="ratio",
                                         alternative="larger", return_results=True)
        rates.append({"controlSuccesses": x1, "controlTrials": n1, "treatmentSuccesses": x2, "treatmentTrials": n2,
                      "margin": margin, "statistic": float(result.statistic), "pValue": float(result.pvalue)})
    means = []
    for (n1, m1, v1), (n2, m2, v2), margin in [((12345, 1.92, 31.4), (12300, 1.90, 33.0), 0.02),
                                               ((10, 5.0, 2.0), (12, 4.5, 4.5), 0.2), ((2, 1.0, 0.5), (3, 1.2, 1.0), 0.1),
                                               ((500, 10.0, 25.0), (500, 9.5, 25.0), 0.05)]:
        a1, a2 = v1 / (n1 * m1 * m1), v2 / (n2 * m2 * m2)
        df = (a1 + a2) ** 2 / (a1 ** 2 / (n1 - 1) + a2 ** 2 / (n2 - 1))
        t = (math.log(m2 / m1) - math.log(1 - margin)) / math.sqrt(a1 + a2)
        means.append({"control": [n1, m1, v1], "treatment": [n2, m2, v2], "margin": margin, "statistic": t,
                      "degreesOfFreedom": df, "pValue": float(stats.t.sf(t, df))})
    return {"rates": rates, "means": means}


def regression_adjustment():
    """CUPED on raw samples drawn here: theta and the adjusted difference of means are the covariate's slope
    and the group coefficient of statsmodels' OLS of y on the groups and x (an analysis of covariance); each
    group's adjusted mean and variance are those of its residuals y - theta (x - mean x); the test of the
    second group against the first is scipy's Welch test on those residuals, and the lift's interval the
    log-ratio formula with scipy's t quantile. Edge cases: a constant covariate (nothing to fit), a constant
    outcome (every device converts), a group of one, and summaries of a billion devices a group."""
    import statsmodels.api as sm

    generator = np.random.default_rng(20261124)

    def correlated(rho, size, outcome):
        noise = generator.standard_normal(size)
        standard = (outcome - outcome.mean()) / (outcome.std() or 1)
        return rho * standard + math.sqrt(1 - rho * rho) * noise

    samples = []
    # An amount with a 10% lift, covariate correlation 0.7.
    ys = [generator.gamma(4, 10 / 4, 2000), generator.gamma(4, 11 / 4, 2000)]
    samples.append(("gamma", ys, [correlated(0.7, len(y), y) for y in ys]))
    # Conversions, covariate correlation 0.5.
    ys = [(generator.random(500) < 0.3).astype(float), (generator.random(520) < 0.36).astype(float)]
    samples.append(("conversion", ys, [correlated(0.5, len(y), y) for y in ys]))
    # Three groups share one slope.
    ys = [generator.lognormal(0, 1, n) * 5 for n in (300, 250, 280)]
    samples.append(("three groups", ys, [correlated(0.4, len(y), y) + 3 for y in ys]))
    # Small groups.
    ys = [np.array([1.0, 4.0, 2.5]), np.array([2.0, 6.0, 3.5, 5.0])]
    samples.append(("small", ys, [np.array([0.5, 3.0, 2.0]), np.array([1.0, 4.0, 1.5, 2.5])]))
    # A covariate that does not vary: nothing to fit.
    ys = [generator.normal(5, 1, 50), generator.normal(5.5, 1, 50)]
    samples.append(("constant covariate", ys, [np.full(50, 2.0), np.full(50, 2.0)]))
    # Every device converts: theta is 0 and the residuals have no spread.
    ys = [np.ones(40), np.ones(40)]
    samples.append(("all convert", ys, [generator.standard_normal(40), generator.standard_normal(40)]))
    # A group of one counts in the covariate's mean, not in the slope.
    ys = [generator.normal(10, 2, 60), generator.normal(11, 2, 60), np.array([9.0])]
    samples.append(("group of one", ys, [y + generator.normal(0, 2, len(y)) for y in ys]))

    rows = []
    for name, ys, xs in samples:
        groups = [[len(y), float(y.mean()), float(y.var(ddof=1)) if len(y) > 1 else 0.0, float(x.mean()),
                   float(x.var(ddof=1)) if len(x) > 1 else 0.0,
                   float(np.cov(x, y, ddof=1)[0, 1]) if len(y) > 1 else 0.0] for y, x in zip(ys, xs)]
        row = {"name": name, "groups": groups}
        x_all = np.concatenate(xs)
        if all(x.var() == 0 for x in xs if len(x) > 1):
            row.update(theta=None)
            rows.append(row)
            continue
        dummies = np.column_stack([np.concatenate([np.full(len(y), 1.0 if g == k else 0.0) for k, y in enumerate(ys)])
                                   for g in range(1, len(ys))])
        design = np.column_stack([np.ones(len(x_all)), dummies, x_all])
        fit = sm.OLS(np.concatenate(ys), design).fit()
        # The slope of a constant outcome is 0; least squares returns rounding noise (1e-17) for it.
        theta = 0.0 if all(y.var() == 0 for y in ys) else float(fit.params[-1])
        centre = float(x_all.mean())
        residuals = [y - theta * (x - centre) for y, x in zip(ys, xs)]
        row.update(theta=theta, covariateMean=centre, difference=float(fit.params[1]),
                   adjusted=[[len(r), float(r.mean()), float(r.var(ddof=1)) if len(r) > 1 else 0.0] for r in residuals])
        r1, r2 = residuals[0], residuals[1]
        if r1.var() + r2.var() > 0:
            test = stats.ttest_ind(r2, r1, equal_var=False)
            row.update(statistic=float(test.statistic), df=float(test.df), pValue=float(test.pvalue))
            m1, m2 = r1.mean(), r2.mean()
            a1, a2 = r1.var(ddof=1) / (len(r1) * m1 * m1), r2.var(ddof=1) / (len(r2) * m2 * m2)
            df = (a1 + a2) ** 2 / (a1 ** 2 / (len(r1) - 1) + a2 ** 2 / (len(r2) - 1))
            half = stats.t.isf(0.025, df) * math.sqrt(a1 + a2)
            row.update(lift=float(m2 / m1 - 1), lower=float(math.exp(math.log(m2 / m1) - half) - 1),
                       upper=float(math.exp(math.log(m2 / m1) + half) - 1))
        else:
            row.update(statistic=None, df=None, pValue=None)
        rows.append(row)

    # A billion devices a group, from summaries: theta from its definition, the test from scipy's summaries.
    groups = [[1_000_000_000, 10.0, 25.0, 0.0, 1.0, 3.5], [1_000_000_000, 10.001, 25.0, 0.0002, 1.0, 3.5]]
    theta = sum((n - 1) * c for n, _, _, _, _, c in groups) / sum((n - 1) * vx for n, _, _, _, vx, _ in groups)
    centre = sum(n * mx for n, _, _, mx, _, _ in groups) / sum(n for n, *_ in groups)
    adjusted = [[n, my - theta * (mx - centre), vy - 2 * theta * c + theta * theta * vx] for n, my, vy, mx, vx, c in groups]
    (n1, m1, v1), (n2, m2, v2) = adjusted
    test = stats.ttest_ind_from_stats(m2, math.sqrt(v2), n2, m1, math.sqrt(v1), n1, equal_var=False)
    rows.append({"name": "a billion a group", "groups": groups, "theta": theta, "covariateMean": centre,
                 "difference": m2 - m1, "adjusted": adjusted, "statistic": float(test.statistic),
                 "df": (v1 / n1 + v2 / n2) ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1)),
                 "pValue": float(test.pvalue)})
    return rows


def ratio_delta():
    """Ratio metrics by the delta method on raw samples drawn here: each group's ratio is sum(y)/sum(x) and the
    variance of its estimate the sample variance of the linearized values (y - R x)/mean(x) over n, computed
    from the units themselves rather than from the moments the bench uses; the test's p-value and the
    intervals come from scipy's normal distribution, the omnibus from its chi-square. Edge cases: a group of
    two, a constant ratio (every unit y = 2x: no variance), and summaries of a billion units a group."""
    generator = np.random.default_rng(20261125)

    def group(n, rate, per_session):
        sessions = generator.poisson(rate, n) + 1.0
        revenue = generator.gamma(2.0, per_session / 2.0, n) * sessions
        return revenue, sessions

    def moments(y, x):
        n = len(y)
        return [n, float(y.mean()), float(y.var(ddof=1)), float(x.mean()), float(x.var(ddof=1)),
                float(np.cov(x, y, ddof=1)[0, 1])]

    def estimate(y, x):
        ratio = y.sum() / x.sum()
        linear = (y - ratio * x) / x.mean()
        return float(ratio), float(linear.var(ddof=1) / len(y))

    z = stats.norm.isf(0.025)
    samples = [
        ("sessions", [group(1500, 3.0, 2.0), group(1400, 3.0, 2.2)]),
        ("three groups", [group(300, 2.0, 5.0), group(280, 2.5, 5.0), group(320, 2.0, 4.0)]),
        ("two a group", [(np.array([3.0, 5.0]), np.array([1.0, 2.0])), (np.array([4.0, 9.0]), np.array([2.0, 3.0]))]),
    ]
    rows = []
    for name, groups in samples:
        estimates = [estimate(y, x) for y, x in groups]
        (r1, v1), (r2, v2) = estimates[0], estimates[1]
        statistic = (r2 - r1) / math.sqrt(v1 + v2)
        half = z * math.sqrt(v1 / r1 ** 2 + v2 / r2 ** 2)
        delta_half = z * math.sqrt(v2 / r1 ** 2 + r2 ** 2 * v1 / r1 ** 4)
        weights = [1 / v for _, v in estimates]
        pooled = sum(w * r for w, (r, _) in zip(weights, estimates)) / sum(weights)
        chi = sum(w * (r - pooled) ** 2 for w, (r, _) in zip(weights, estimates))
        rows.append({"name": name, "groups": [moments(y, x) for y, x in groups],
                     "ratios": [r for r, _ in estimates], "variances": [v for _, v in estimates],
                     "statistic": statistic, "pValue": float(2 * stats.norm.sf(abs(statistic))),
                     "lift": r2 / r1 - 1, "lower": math.exp(math.log(r2 / r1) - half) - 1,
                     "upper": math.exp(math.log(r2 / r1) + half) - 1, "deltaLower": r2 / r1 - 1 - delta_half,
                     "deltaUpper": r2 / r1 - 1 + delta_half, "omnibus": chi,
                     "omnibusPValue": float(stats.chi2.sf(chi, len(groups) - 1))})
    x = np.array([1.0, 2.0, 3.0, 4.0])
    rows.append({"name": "constant ratio", "groups": [moments(2 * x, x), moments(2 * x, x)], "ratios": [2.0, 2.0],
                 "variances": [0.0, 0.0], "statistic": None, "pValue": None})
    # A billion units a group, from summaries: the variance from its formula, the rest from scipy.
    groups = [[1_000_000_000, 6.0, 40.0, 3.0, 2.0, 5.0], [1_000_000_000, 6.003, 40.0, 3.0, 2.0, 5.0]]
    estimates = []
    for n, my, vy, mx, vx, c in groups:
        ratio = my / mx
        estimates.append((ratio, (vy - 2 * ratio * c + ratio ** 2 * vx) / (n * mx * mx)))
    (r1, v1), (r2, v2) = estimates
    statistic = (r2 - r1) / math.sqrt(v1 + v2)
    rows.append({"name": "a billion a group", "groups": groups, "ratios": [r1, r2], "variances": [v1, v2],
                 "statistic": statistic, "pValue": float(2 * stats.norm.sf(abs(statistic)))})
    return rows


def quantiles():
    """Quantiles of amounts: numpy's "inverted_cdf" quantile and scipy's quantile_test's distribution-free
    interval on raw samples drawn here (and, for a billion values, the same ranks from scipy's binomial
    distribution, checked against quantile_test on the drawn samples). Comparisons take each estimate's variance
    from its interval, ((high - low) / (2 z))^2, and compute the z test, both lift intervals and the Wald omnibus
    from it. Edge cases: one and two values, n q whole (0.9 of 10 values), ties, a constant sample."""
    generator = np.random.default_rng(20261124)
    z = stats.norm.isf(0.025)

    def ranks(n, q):
        distribution = stats.binom(n, q)
        return int(distribution.ppf(0.025)), int(distribution.isf(0.025)) + 1

    def summary(x, q):
        values, counts = np.unique(x, return_counts=True)
        row = {"values": [float(v) for v in values], "counts": [int(c) for c in counts], "q": q,
               "quantile": float(np.quantile(x, q, method="inverted_cdf"))}
        interval = stats.quantile_test(x, q=0, p=q).confidence_interval(0.95)
        low, high = ranks(len(x), q)
        ordered = np.sort(x)
        if math.isnan(interval.low) or math.isnan(interval.high):
            assert low < 1 or high > len(x)
            row["lower"], row["upper"] = None, None
        else:
            assert ordered[low - 1] == interval.low and ordered[high - 1] == interval.high
            row["lower"], row["upper"] = float(interval.low), float(interval.high)
        return row

    def variance(row):
        return ((row["upper"] - row["lower"]) / (2 * z)) ** 2

    estimates = []
    for name, x, q in [
        ("lognormal median", generator.lognormal(2.0, 1.0, 1000), 0.5),
        ("lognormal p90", generator.lognormal(2.0, 1.0, 1000), 0.9),
        ("gamma p10 of 57", generator.gamma(0.5, 4.0, 57), 0.1),
        ("ten values at 0.9", np.arange(1.0, 11.0), 0.9),
        ("ties", np.repeat([1.0, 2.0, 4.0, 8.0], [30, 10, 25, 35]), 0.75),
        ("one value", np.array([3.0]), 0.5),
        ("two values", np.array([3.0, 5.0]), 0.5),
        ("constant", np.full(200, 7.0), 0.5),
    ]:
        estimates.append({"name": name, **summary(x, q)})
    # A billion values in three amounts: the ranks from the binomial, the values from the cumulative counts.
    values, counts, n = [1.0, 2.0, 3.0], [499_990_000, 20_000, 499_990_000], 1_000_000_000
    low, high = ranks(n, 0.5)
    cumulative = np.cumsum(counts)
    def at(rank):
        return values[int(np.searchsorted(cumulative, rank))]
    estimates.append({"name": "a billion values", "values": values, "counts": counts, "q": 0.5,
                      "quantile": at(math.ceil(n * 0.5)), "lower": at(low), "upper": at(high)})

    comparisons = []
    for name, groups, q in [
        ("medians of 800 and 900", [generator.lognormal(2.0, 1.0, 800), generator.lognormal(2.1, 1.0, 900)], 0.5),
        ("p90 of three groups", [generator.gamma(2.0, 5.0, 600), generator.gamma(2.0, 5.5, 650),
                                 generator.gamma(2.0, 4.5, 700)], 0.9),
    ]:
        rows = [summary(x, q) for x in groups]
        (e1, v1), (e2, v2) = [(row["quantile"], variance(row)) for row in rows[:2]]
        statistic = (e2 - e1) / math.sqrt(v1 + v2)
        half = z * math.sqrt(v1 / e1 ** 2 + v2 / e2 ** 2)
        delta_half = z * math.sqrt(v2 / e1 ** 2 + e2 ** 2 * v1 / e1 ** 4)
        weights = [1 / variance(row) for row in rows]
        pooled = sum(w * row["quantile"] for w, row in zip(weights, rows)) / sum(weights)
        chi = sum(w * (row["quantile"] - pooled) ** 2 for w, row in zip(weights, rows))
        comparisons.append({"name": name, "groups": rows, "variances": [variance(row) for row in rows],
                            "statistic": statistic, "pValue": float(2 * stats.norm.sf(abs(statistic))),
                            "lift": e2 / e1 - 1, "lower": math.exp(math.log(e2 / e1) - half) - 1,
                            "upper": math.exp(math.log(e2 / e1) + half) - 1, "deltaLower": e2 / e1 - 1 - delta_half,
                            "deltaUpper": e2 / e1 - 1 + delta_half, "omnibus": chi,
                            "omnibusPValue": float(stats.chi2.sf(chi, len(rows) - 1))})
    return estimates, comparisons


def winsorization():
    """Welch's test on amounts capped at their pooled percentile, from scipy's ttest_ind on the capped raw
    samples. Amounts are whole grid steps; the cap is numpy's "inverted_cdf" percentile of both samples together,
    moved up to the top of its histogram bucket (docs/statistics.md, "Winsorized metrics"), which below 128 steps
    is the percentile itself. Edge cases: ties at the cap, a cap above every amount, a constant sample."""
    generator = np.random.default_rng(20261125)

    def bucket(steps):
        if steps < 128:
            return max(steps, 0)
        shift = steps.bit_length() - 1 - 7
        return shift * 128 + (steps >> shift)

    def top(index):
        if index < 128:
            return index
        shift, mantissa = index // 128 - 1, index % 128 + 128
        return (mantissa << shift) + (1 << shift) - 1

    rows = []
    for name, control, treatment, percentile in [
        ("small counts", generator.poisson(20, 400), generator.poisson(23, 500), 0.95),
        ("ties at the cap", np.repeat([1, 2, 3, 4], [50, 30, 15, 5]), np.repeat([1, 2, 3, 4], [40, 35, 15, 10]), 0.9),
        ("log-normal amounts", np.rint(generator.lognormal(0, 2, 1500) * 10 * 1024).astype(np.int64),
         np.rint(generator.lognormal(0, 2, 1600) * 11 * 1024).astype(np.int64), 0.99),
        ("the median", np.rint(generator.gamma(0.5, 4, 300) * 4096).astype(np.int64),
         np.rint(generator.gamma(0.5, 5, 300) * 4096).astype(np.int64), 0.5),
        ("a cap at the largest amount", np.arange(1, 11), np.arange(2, 12), 0.999),
        ("a constant sample", np.full(50, 7), np.full(60, 7), 0.9),
    ]:
        pooled = np.concatenate([control, treatment])
        percentile_steps = int(np.quantile(pooled, percentile, method="inverted_cdf"))
        rank = math.ceil(percentile * len(pooled) - 1e-9)
        assert np.sort(pooled)[rank - 1] == percentile_steps, name
        cap = top(bucket(percentile_steps))
        a, b = np.minimum(control, cap).astype(float), np.minimum(treatment, cap).astype(float)
        row = {"name": name, "percentile": percentile, "control": [int(x) for x in control],
               "treatment": [int(x) for x in treatment], "cap": cap,
               "capped": [int((control > cap).sum()), int((treatment > cap).sum())],
               "means": [float(a.mean()), float(b.mean())], "variances": [float(a.var(ddof=1)), float(b.var(ddof=1))]}
        if a.var() + b.var() == 0:
            row.update(statistic=None, pValue=None)
        else:
            result = stats.ttest_ind(b, a, equal_var=False)
            row.update(statistic=float(result.statistic), pValue=float(result.pvalue))
        rows.append(row)
    return rows


def group_sequential():
    """Alpha-spending boundaries on |Z|, solved independently of the bench: each crossing
    probability is a rectangle probability of the looks' multivariate normal (correlation
    sqrt(t_j / t_k)), from scipy's multivariate_normal.cdf (Genz), and brentq finds the boundary."""
    from scipy import optimize

    def spent(kind, alpha, t):
        if kind == "obrien-fleming":
            return 2 * stats.norm.sf(stats.norm.isf(alpha / 2) / math.sqrt(t))
        return alpha * math.log(1 + (math.e - 1) * t)

    def within(bounds, fractions):
        """P(|Z_j| < c_j for every look j)."""
        k = len(bounds)
        if k == 1:
            return 1 - 2 * stats.norm.sf(bounds[0])
        cov = np.array([[math.sqrt(min(a, b) / max(a, b)) for b in fractions] for a in fractions])
        upper = np.array(bounds)
        return float(stats.multivariate_normal(mean=np.zeros(k), cov=cov, allow_singular=False,
                                               maxpts=200_000 * k, abseps=1e-8, releps=1e-8)
                     .cdf(upper, lower_limit=-upper))

    rows = []
    for kind in ["obrien-fleming", "pocock"]:
        for fractions, alpha in [([0.2, 0.4, 0.6, 0.8, 1.0], 0.05), ([0.3, 0.7, 1.0], 0.05), ([0.5, 1.0], 0.01)]:
            bounds = []
            for k, t in enumerate(fractions):
                increment = spent(kind, alpha, t) - (spent(kind, alpha, fractions[k - 1]) if k else 0)
                before = within(bounds, fractions[:k]) if k else 1.0
                bound = optimize.brentq(lambda c: before - within(bounds + [c], fractions[:k + 1]) - increment, 0.5, 12,
                                        xtol=1e-10)
                bounds.append(bound)
            rows.append({"spending": kind, "fractions": fractions, "alpha": alpha, "boundaries": bounds})
    return rows


def welch():
    cases = [((12345, 1.92, 31.4), (12300, 2.01, 33.0)), ((10, 5.0, 2.0), (12, 6.5, 4.5)), ((2, 0.0, 1.0), (2, 3.0, 1.0)),
             ((50, 3.0, 2.0), (60, 3.0, 2.5)), ((30, 1.0, 0.0), (30, 1.0, 0.0)), ((1, 1.0, 0.0), (10, 2.0, 1.0)),
             ((1_000_000_000, 1.0, 1.0), (1_000_000_000, 1.0001, 1.0)), ((1000, 0.0, 1.0), (1000, 10.0, 1.0))]
    rows = []
    for (n1, m1, v1), (n2, m2, v2) in cases:
        row = {"control": [n1, m1, v1], "treatment": [n2, m2, v2]}
        if n1 < 2 or n2 < 2 or v1 / n1 + v2 / n2 == 0:
            row.update(statistic=None, df=None, pValue=None)
        else:
            result = stats.ttest_ind_from_stats(m2, math.sqrt(v2), n2, m1, math.sqrt(v1), n1, equal_var=False)
            a, b = v1 / n1, v2 / n2
            row.update(statistic=float(result.statistic), df=(a + b) ** 2 / (a * a / (n1 - 1) + b * b / (n2 - 1)),
                       pValue=float(result.pvalue))
        rows.append(row)
    return rows


def welch_anova():
    """Welch's heteroscedastic F test from its formula (Welch, 1951), with scipy's F survival function."""
    rows = []
    for groups in [[(20, 5.0, 2.0), (25, 6.0, 3.0), (30, 5.5, 2.5)], [(100, 1.0, 1.0), (100, 1.1, 1.2)],
                   [(10, 0.0, 1.0), (10, 0.0, 1.0)], [(10, 1.0, 0.0), (10, 2.0, 1.0)]]:
        row = {"groups": [list(g) for g in groups]}
        if any(v == 0 for _, _, v in groups):
            row.update(statistic=None, df=None, pValue=None)
        else:
            k = len(groups)
            w = [n / v for n, _, v in groups]
            total = sum(w)
            grand = sum(wi * m for wi, (_, m, _) in zip(w, groups)) / total
            between = sum(wi * (m - grand) ** 2 for wi, (_, m, _) in zip(w, groups)) / (k - 1)
            lam = sum((1 - wi / total) ** 2 / (n - 1) for wi, (n, _, _) in zip(w, groups))
            f = between / (1 + 2 * (k - 2) * lam / (k * k - 1))
            df2 = (k * k - 1) / (3 * lam)
            row.update(statistic=f, df=float(k - 1), pValue=float(stats.f.sf(f, k - 1, df2)))
        rows.append(row)
    return rows


def mann_whitney():
    rng = np.random.default_rng(20261122)
    cases = [
        ([1.0, 2.0, 3.0, 4.0, 5.0], [3.0, 4.0, 5.0, 6.0, 7.0, 8.0]),
        ([1.0, 1.0, 2.0, 2.0, 3.0], [2.0, 2.0, 3.0, 3.0, 3.0]),
        ([0.0] * 20 + [1.0] * 5, [0.0] * 15 + [1.0] * 10),
        (list(np.round(rng.lognormal(0.0, 1.0, 200), 6)), list(np.round(rng.lognormal(0.2, 1.0, 180), 6))),
    ]
    rows = []
    for x, y in cases:
        result = stats.mannwhitneyu(x, y, alternative="two-sided", method="asymptotic", use_continuity=True)
        rows.append({"first": [float(v) for v in x], "second": [float(v) for v in y],
                     "statistic": float(result.statistic), "pValue": float(result.pvalue)})
    return rows


def pearson():
    rows = []
    for observed, shares in [([5050, 4950], [0.5, 0.5]), ([2600, 2400, 5000], [1, 1, 2]), ([100, 0], [0.5, 0.5]),
                             ([30, 40, 30], [0.3, 0.4, 0.3]), ([500_100_000, 499_900_000], [0.5, 0.5])]:
        total = sum(observed)
        expected = [total * s / sum(shares) for s in shares]
        result = stats.chisquare(observed, f_exp=expected)
        rows.append({"observed": observed, "shares": shares, "statistic": float(result.statistic),
                     "df": float(len(observed) - 1), "pValue": float(result.pvalue)})
    return rows


def holm(p_values):
    """Holm's step-down adjustment, written out from its definition."""
    order = sorted(range(len(p_values)), key=lambda i: (p_values[i], i))
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def corrections():
    rows = []
    for p_values in [[0.01, 0.04, 0.03, 0.005], [0.5], [0.02, 0.02, 0.5], [1e-10, 0.2, 0.049, 0.051, 0.9]]:
        rows.append({"pValues": p_values, "holm": holm(p_values),
                     "benjaminiHochberg": [float(v) for v in stats.false_discovery_control(p_values, method="bh")]})
    return rows


def probability_to_beat(alpha_c, beta_c, alpha_t, beta_t):
    """P(p_t > p_c) for Beta posteriors with whole-number alpha_t, by the closed-form sum
    (no integration): sum over i < alpha_t of B(alpha_c + i, beta_c + beta_t) /
    ((beta_t + i) B(1 + i, beta_t) B(alpha_c, beta_c))."""
    total = 0.0
    for i in range(int(alpha_t)):
        total += math.exp(special.betaln(alpha_c + i, beta_c + beta_t) - math.log(beta_t + i)
                          - special.betaln(1 + i, beta_t) - special.betaln(alpha_c, beta_c))
    return total


def expected_loss(alpha_c, beta_c, alpha_t, beta_t):
    """E[max(p_c - p_t, 0)] in closed form, with no integration: size-biasing gives
    E[p_c 1{p_c > p_t}] = mean_c P(C+ > T) with C+ ~ Beta(alpha_c + 1, beta_c), and likewise for T."""
    mean_c = alpha_c / (alpha_c + beta_c)
    mean_t = alpha_t / (alpha_t + beta_t)
    return (mean_c * probability_to_beat(alpha_t, beta_t, alpha_c + 1, beta_c)
            - mean_t * probability_to_beat(alpha_t + 1, beta_t, alpha_c, beta_c))


def bayesian():
    rows = []
    for xc, nc, xt, nt in [(10, 100, 15, 100), (0, 10, 0, 10), (100, 1000, 120, 1000), (617, 12345, 700, 12300),
                           (50, 100, 40, 100), (3, 3, 0, 3), (5000, 100000, 5200, 100000)]:
        ac, bc, at, bt = 1 + xc, 1 + nc - xc, 1 + xt, 1 + nt - xt
        rows.append({"control": [xc, nc], "treatment": [xt, nt], "prior": [1, 1],
                     "probabilityToBeat": probability_to_beat(ac, bc, at, bt),
                     "expectedLoss": expected_loss(ac, bc, at, bt)})
    return rows


def power_two_sided():
    """Achieved power of the two-sided tests, both tails, from statsmodels: its
    two-proportion power uses the pooled variance under the null and the
    unpooled one under the alternative, as the bench does; NormalIndPower is the
    z-test of two means. Near no effect the power must come out at alpha."""
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import power_proportions_2indep

    proportions = []
    for p1, p2, n, alpha in [(0.05, 0.055, 31_000, 0.05), (0.05, 0.0501, 1000, 0.05), (0.05, 0.05 + 1e-9, 500, 0.05),
                             (0.3, 0.2, 50, 0.01), (0.5, 0.51, 100, 0.1), (0.001, 0.002, 10_000, 0.05),
                             (0.0, 0.01, 958, 0.05)]:
        result = power_proportions_2indep(p2 - p1, p1, n, alpha=alpha, alternative="two-sided", return_results=True)
        proportions.append({"baseline": p1, "treatment": p2, "perGroup": n, "alpha": alpha, "power": float(result.power)})
    means = []
    for delta, sd, n, alpha in [(0.5, 1.0, 63, 0.05), (1e-6, 1.0, 100, 0.05), (0.1, 2.0, 20, 0.05), (-0.3, 1.0, 200, 0.01),
                                (2.0, 1.0, 3, 0.05)]:
        value = NormalIndPower().power(effect_size=abs(delta) / sd, nobs1=n, alpha=alpha, ratio=1, alternative="two-sided")
        means.append({"difference": delta, "standardDeviation": sd, "perGroup": n, "alpha": alpha, "power": float(value)})
    return {"proportions": proportions, "means": means}


def power():
    rows = []
    for p1, p2, alpha, target in [(0.05, 0.055, 0.05, 0.8), (0.1, 0.12, 0.05, 0.9), (0.5, 0.45, 0.01, 0.8),
                                  (0.0, 0.01, 0.05, 0.8)]:
        z_a, z_b = stats.norm.isf(alpha / 2), stats.norm.ppf(target)
        mean = (p1 + p2) / 2
        root = z_a * math.sqrt(2 * mean * (1 - mean)) + z_b * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
        n = math.ceil(root**2 / (p2 - p1) ** 2)
        spread = math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
        critical = z_a * math.sqrt(2 * mean * (1 - mean))
        achieved = (stats.norm.cdf((abs(p2 - p1) * math.sqrt(n) - critical) / spread)
                    + stats.norm.cdf((-abs(p2 - p1) * math.sqrt(n) - critical) / spread))
        rows.append({"baseline": p1, "treatment": p2, "alpha": alpha, "power": target, "sampleSize": n,
                     "achievedAtSampleSize": float(achieved)})
    return rows


def sequential():
    """The normal-mixture mSPRT's always-valid p-values for a sequence of looks, from the formula."""
    looks = [(0.01, 0.0004), (0.012, 0.0002), (0.02, 0.0001), (0.005, 0.00008), (0.03, 0.00005)]
    tau2 = 0.0001
    p = 1.0
    values = []
    for estimate, variance in looks:
        ratio = math.sqrt(variance / (variance + tau2)) * math.exp(estimate**2 * tau2 / (2 * variance * (variance + tau2)))
        p = min(p, min(1.0, 1.0 / ratio))
        values.append(p)
    return {"mixtureVariance": tau2, "looks": [list(look) for look in looks], "pValues": values}


def retrodesign():
    """Gelman and Carlin's (2014) design analysis, computed independently of the bench's closed form: power and
    the type S error from scipy's normal distribution, the exaggeration ratio by integrating |x| over the
    rejection region with scipy's quad (Gelman and Carlin simulate it)."""
    from scipy import integrate

    rows = []
    for difference, standard_error, alpha in [(0.1, 0.05, 0.05), (0.1, 0.5, 0.05), (-0.3, 0.1, 0.05), (0.004, 0.0038, 0.05),
                                              (2.0, 0.1, 0.05), (0.01, 1.0, 0.05), (0.05, 0.02, 0.01), (0.05, 0.02, 0.2),
                                              (1e-6, 1e-7, 0.05), (1e6, 3e5, 0.05)]:
        z = stats.norm.isf(alpha / 2)
        critical = z * standard_error
        mean = abs(difference)
        high = stats.norm.sf(critical, loc=mean, scale=standard_error)
        low = stats.norm.cdf(-critical, loc=mean, scale=standard_error)
        power = high + low

        def density(x):
            return abs(x) * stats.norm.pdf(x, loc=mean, scale=standard_error)

        reach = mean + 40 * standard_error
        upper, _ = integrate.quad(density, critical, reach, epsabs=0, epsrel=1e-13, limit=200)
        lower, _ = integrate.quad(density, -reach, -critical, epsabs=0, epsrel=1e-13, limit=200) if -critical > -reach else (0.0, 0)
        rows.append({"difference": difference, "standardError": standard_error, "alpha": alpha,
                     "power": float(power), "typeS": float(low / power),
                     "exaggeration": float((upper + lower) / power / mean)})
    return {"generator": f"scipy {scipy.__version__}", "cases": rows}


def skewness():
    """Sample skewness g1 (scipy's `skew`, bias=True) of amounts drawn here: log-normal, gamma, symmetric,
    with negative values, tiny and huge scales, and three values. Every amount is a multiple of 2^-10 of its
    scale's power of two, so a grid of 2^-32 of that scale holds it exactly and the bench sees these very
    values."""
    rng = np.random.default_rng(20261125)
    cases = []
    for label, draw, scale in [("lognormal-1.5", lambda n: rng.lognormal(0, 1.5, n), 10.0),
                               ("gamma-4", lambda n: rng.gamma(4, 2.5, n), 10.0),
                               ("normal", lambda n: rng.normal(0, 1, n), 1.0),
                               ("refunds", lambda n: rng.normal(5, 10, n), 10.0),
                               ("tiny", lambda n: rng.lognormal(-20, 1, n), 1e-8),
                               ("huge", lambda n: rng.lognormal(20, 1, n), 1e9),
                               ("three", lambda n: np.array([1.0, 2.0, 7.0]), 4.0)]:
        values = draw(500 if label != "three" else 3)
        unit = 2.0 ** (math.frexp(scale)[1] - 10)
        values = np.round(values / unit) * unit
        cases.append({"label": label, "scale": scale, "values": [float(v) for v in values],
                      "skewness": float(stats.skew(values))})
    return cases


def tests():
    quantile_estimates, quantile_comparisons = quantiles()
    return {
        "generator": f"scipy {scipy.__version__}",
        "twoProportionZ": two_proportion_z(),
        "chiSquareIndependence": chi_square_independence(),
        "fisherExact": fisher_exact(),
        "wilson": wilson(),
        "differenceInterval": difference_interval(),
        "meanInterval": mean_interval(),
        "relativeLift": relative_lift(),
        "wilsonRatio": wilson_ratio(),
        "logRatio": log_ratio(),
        "welch": welch(),
        "welchANOVA": welch_anova(),
        "mannWhitney": mann_whitney(),
        "pearson": pearson(),
        "corrections": corrections(),
        "bayesian": bayesian(),
        "power": power(),
        "powerTwoSided": power_two_sided(),
        "nonInferiority": non_inferiority(),
        "regressionAdjustment": regression_adjustment(),
        "ratioDelta": ratio_delta(),
        "quantileEstimates": quantile_estimates,
        "quantileComparisons": quantile_comparisons,
        "groupSequential": group_sequential(),
        "sequential": sequential(),
    }


def write_single(name):
    """retrodesign.json or distributions.json under the Statistics fixtures, or skewness.json under the Analysis ones."""
    if name == "retrodesign":
        path, content = FIXTURES / "retrodesign.json", retrodesign()
    elif name == "distributions":
        path, content = FIXTURES / "distributions.json", distributions()
    else:
        path = ROOT / "Tests" / "AnalysisTests" / "Fixtures" / "skewness.json"
        content = {"generator": f"scipy {scipy.__version__}", "cases": skewness()}
    path.write_text(json.dumps(content, indent=2, sort_keys=True) + "\n")
    print(f"wrote {path}")


def main():
    if sys.argv[1:] in (["retrodesign"], ["skewness"], ["distributions"]):
        # Each needs scipy only, and rewrites no other fixture (group-sequential ones move with scipy's randomness).
        write_single(sys.argv[1])
        return
    ensure_statsmodels()
    FIXTURES.mkdir(parents=True, exist_ok=True)
    write_single("retrodesign")
    write_single("skewness")
    for name, content in [("distributions.json", distributions()), ("tests.json", tests())]:
        path = FIXTURES / name
        path.write_text(json.dumps(content, indent=2, sort_keys=True) + "\n")
        print(f"wrote {path}")
    path = ROOT / "Tests" / "AnalysisTests" / "Fixtures" / "winsorized.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"generator": f"scipy {scipy.__version__}", "cases": winsorization()}, indent=2) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
