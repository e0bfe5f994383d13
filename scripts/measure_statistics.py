#!/usr/bin/env python3
"""Reproduces the measured figures of docs/statistics.md that come from variants of the committed
scenarios: lift-interval coverage by method, small samples of amounts, the always-valid mixture's
trade of early for late power, alpha spending on the peeking scenario, the minimum sample, ratio,
quantile and winsorized metrics, and CUPED on the cuped scenario.

Run from the repository's root (it builds the bench in release first; the whole run takes about
fifteen minutes on two cores):

    python3 scripts/measure_statistics.py [section ...]

Sections: coverage, small-samples, mixture, spending, minimum-sample, ratios, quantiles, winsorized, cuped,
skew (default: all). Each variant is the committed
scenario with a few fields changed, written to a temporary folder; the figures are read from the
calibration in its results.json.
"""
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


def bench():
    subprocess.run(["swift", "build", "-c", "release", "--product", "bench"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    folder = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    return pathlib.Path(folder) / "bench"


def calibrate(executable, scenario, replications, work, devices=None):
    """The calibration's comparisons of the first experiment, by metric."""
    path = work / f"{scenario['name']}.json"
    path.write_text(json.dumps(scenario))
    command = [str(executable), str(path), "--replications", str(replications), "--out", str(work), "--quiet"]
    if devices is not None:
        command += ["--devices", str(devices)]
    subprocess.run(command, check=True)
    results = json.loads((work / scenario["name"] / "results.json").read_text())
    return {metric["metric"]: metric["comparisons"] for metric in results["calibration"]["experiments"][0]["metrics"]}


def variant(base, **changes):
    scenario = json.loads((SCENARIOS / f"{base}.json").read_text())
    for path, value in changes.items():
        target = scenario
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
    return scenario


def percent(value):
    return "–" if value is None else f"{100 * value:.1f}%"


def coverage(executable, work):
    print("Lift-interval coverage (conversion, revenue):")
    for method in ["ratio", "delta"]:
        cells = []
        for devices, replications in [(2000, 4000), (40, 2000)]:
            scenario = variant("true-effect", name=f"coverage-{method}-{devices}", analysis__liftInterval=method)
            by_metric = calibrate(executable, scenario, replications, work, devices=devices)
            cells.append(", ".join(percent(by_metric[m][0]["coverage"]) for m in ["converted", "revenue"]))
        print(f"  {method}: 1,000 an arm: {cells[0]}; 20 an arm: {cells[1]}")


def small_samples(executable, work):
    print("Small samples of amounts, A/A (false-positive rate, lift coverage):")
    metrics = {
        "gamma": {"name": "revenue", "kind": "continuous", "distribution": "gamma", "shape": 4, "baseline": 10},
        "lognormal": {"name": "revenue", "kind": "continuous", "distribution": "lognormal", "sigma": 1.5,
                      "baseline": 10},
    }
    for distribution, metric in metrics.items():
        for devices in [6, 10, 20, 60, 100]:
            scenario = variant("true-effect", name=f"small-{distribution}-{devices}", metrics=[metric])
            comparison = calibrate(executable, scenario, 4000, work, devices=devices)["revenue"][0]
            print(f"  {distribution}, about {devices // 2} an arm: {percent(comparison['significantRate'])}, "
                  f"{percent(comparison['coverage'])}")


def mixture(executable, work):
    print("Always-valid mixture (significant by day 7, by day 21, A/A by day 21):")
    lift = [{"name": "converted", "kind": "conversion", "baseline": 0.2, "lifts": {"Onboarding": {"Twin": 0.2}}}]
    for value in [0.05, 0.2, 0.5, 2]:
        rates = []
        for days, metrics in [(7, lift), (21, lift), (21, None)]:
            changes = {"name": f"mixture-{str(value).replace('.', '_')}-{days}-{'aa' if metrics is None else 'lift'}",
                       "days": days, "analysis__alwaysValidMixture": value}
            if metrics is not None:
                changes["metrics"] = metrics
            comparison = calibrate(executable, variant("peeking", **changes), 2000, work)["converted"][0]
            rates.append(percent(comparison["alwaysValidSignificantRate"]))
        print(f"  {value}: {', '.join(rates)}")


def spending(executable, work):
    print("Peeking scenario, 20,000 A/A replications (significant at the end, peeking, always valid, "
          "O'Brien-Fleming, Pocock):")
    comparison = calibrate(executable, variant("peeking"), 20000, work)["converted"][0]
    keys = ["significantRate", "peekingSignificantRate", "alwaysValidSignificantRate",
            "obrienFlemingSignificantRate", "pocockSignificantRate"]
    print("  " + ", ".join(f"{100 * comparison[key]:.2f}%" for key in keys))
    lift = [{"name": "converted", "kind": "conversion", "baseline": 0.2, "lifts": {"Onboarding": {"Twin": 0.2}}}]
    comparison = calibrate(executable, variant("peeking", name="spending-lift", metrics=lift), 2000, work)["converted"][0]
    print("  with a true lift of 20%, 2,000 replications: " + ", ".join(percent(comparison[key]) for key in keys))


def minimum_sample(executable, work):
    """true-effect.json with the minimum lowered to 2 devices a variant, at about 2 to 20 devices an arm, 4,000
    replications each: the coverage of both metrics' lift intervals, and their false-positive rates without
    the lifts."""
    print("Minimum sample, 4,000 replications (devices an arm: converted coverage, false positives; "
          "revenue coverage, false positives):")
    for devices in [4, 6, 10, 20, 40]:
        scenario = variant("true-effect", name=f"minimum-{devices}", analysis__minimumDevicesPerVariant=2)
        effect = calibrate(executable, scenario, 4000, work, devices=devices)
        scenario["name"] = f"minimum-aa-{devices}"
        for metric in scenario["metrics"]:
            metric.pop("lifts")
        null = calibrate(executable, scenario, 4000, work, devices=devices)
        print(f"  {devices // 2}: " + "; ".join(
            f"{percent(effect[name][0]['coverage'])}, {percent(null[name][0]['significantRate'])}"
            for name in ["converted", "revenue"]))


def ratios(executable, work):
    """Revenue per session in the ratio-metrics scenario, 10,000 replications: the coverage of the lift's
    interval on the log scale and by the symmetric delta method, and the false-positive rate without lifts."""
    print("Ratio metric, 10,000 replications (coverage on the log scale, by the delta method; A/A false positives):")
    log_scale = calibrate(executable, variant("ratio-metrics"), 10000, work)["revenuePerSession"][0]
    symmetric = calibrate(executable, variant("ratio-metrics", name="ratio-delta", analysis__liftInterval="delta"), 10000,
                          work)["revenuePerSession"][0]
    scenario = variant("ratio-metrics", name="ratio-aa")
    for metric in scenario["metrics"]:
        metric.pop("lifts")
    null = calibrate(executable, scenario, 10000, work)["revenuePerSession"][0]
    print(f"  {percent(log_scale['coverage'])}, {percent(symmetric['coverage'])}; {percent(null['significantRate'])}")


def quantiles(executable, work):
    """The median and 90th percentile of revenue in the quantile-metrics scenario (log-normal, sigma 1, a true
    lift of 10%) at 10,000 and 200 devices, 10,000 replications each: the coverage of the lift's interval on the log
    scale and by the delta method, the power beside the mean's, and the false-positive rate without the lift."""
    print("Quantile metrics, 10,000 replications (coverage on the log scale, by the delta method; power; A/A):")
    for devices in [10000, 200]:
        log_scale = calibrate(executable, variant("quantile-metrics"), 10000, work, devices=devices)
        symmetric = calibrate(executable, variant("quantile-metrics", name="quantile-delta",
                                                  analysis__liftInterval="delta"), 10000, work, devices=devices)
        scenario = variant("quantile-metrics", name="quantile-aa")
        scenario["metrics"][0].pop("lifts")
        null = calibrate(executable, scenario, 10000, work, devices=devices)
        print(f"  {devices:,} devices: mean: power {percent(log_scale['revenue'][0]['significantRate'])}")
        for name in ["revenue.p50", "revenue.p90"]:
            print(f"    {name}: {percent(log_scale[name][0]['coverage'])}, {percent(symmetric[name][0]['coverage'])}; "
                  f"power {percent(log_scale[name][0]['significantRate'])}; A/A {percent(null[name][0]['significantRate'])}")


def winsorized(executable, work):
    """Revenue of the winsorized-revenue scenario (log-normal, sigma 2, a true lift of 10%, 30,000 devices) capped
    at several percentiles, 5,000 replications each: the capped means' lift from theory (scipy), the mean of the
    estimated lifts, how often the interval held the true +10%, the power, and the false-positive rate without the
    lift. Theory: two equal arms of means 10 and 11 capped at their pooled percentile c, each capped mean
    E[min(X, c)] = m Phi((ln c - mu - s^2) / s) + c (1 - Phi((ln c - mu) / s)) with mu = ln m - s^2 / 2."""
    import math
    from scipy import optimize, stats

    def theory(percentile, sigma=2.0):
        mus = [math.log(m) - sigma * sigma / 2 for m in (10.0, 11.0)]
        log_cap = optimize.brentq(lambda x: sum(stats.norm.cdf((x - mu) / sigma) for mu in mus) / 2 - percentile, -50, 50,
                                  xtol=1e-12)
        capped = [m * stats.norm.cdf((log_cap - mu - sigma * sigma) / sigma)
                  + math.exp(log_cap) * stats.norm.sf((log_cap - mu) / sigma) for m, mu in zip((10.0, 11.0), mus)]
        return capped[1] / capped[0] - 1

    print("Winsorized revenue, 5,000 replications (capped lift in theory; mean estimated lift; coverage of the true "
          "+10%; power; A/A):")
    for percentile in [0.9, 0.95, 0.99, 0.999]:
        scenario = variant("winsorized-revenue")
        scenario["metrics"][0]["winsorize"] = percentile
        lifted = calibrate(executable, scenario, 5000, work)
        scenario["name"] = "winsorized-aa"
        scenario["metrics"][0].pop("lifts")
        null = calibrate(executable, scenario, 5000, work)
        name = "revenue.w" + f"{percentile * 100:g}"
        if percentile == 0.9:
            row = lifted["revenue"][0]
            print(f"  uncapped: +10.0%; {percent(row['meanLift'])}; {percent(row['coverage'])}; "
                  f"{percent(row['significantRate'])}; {percent(null['revenue'][0]['significantRate'])}")
        row = lifted[name][0]
        print(f"  {name}: {percent(theory(percentile))}; {percent(row['meanLift'])}; {percent(row['coverage'])}; "
              f"{percent(row['significantRate'])}; {percent(null[name][0]['significantRate'])}")


def cuped(executable, work):
    """Revenue of the cuped scenario (gamma, shape 4, mean 10, a 5% lift, about 1,000 devices an arm) at
    several covariate correlations, 10,000 replications each, against the power of a test whose variance is
    (1 - rho^2) of the unadjusted one; then the A/A false-positive rates with the committed correlations."""
    import math
    from scipy import stats

    def theory(factor):
        shift = 0.5 / math.sqrt((25 + 5.25 ** 2) * factor / 1000)
        z = stats.norm.isf(0.025)
        return stats.norm.cdf(shift - z) + stats.norm.cdf(-shift - z)

    print("CUPED on revenue, 10,000 replications (rho: theory, adjusted significant, unadjusted significant, "
          "adjusted coverage):")
    base = variant("cuped")
    for rho in [0.0, 0.3, 0.5, 0.7, 0.9]:
        metrics = json.loads(json.dumps(base["metrics"]))
        metrics[1]["covariateCorrelation"] = rho
        comparison = calibrate(executable, variant("cuped", name=f"cuped-{int(rho * 10)}", metrics=metrics), 10000, work)["revenue"][0]
        print(f"  {rho}: {percent(theory(1 - rho * rho))}, {percent(comparison['significantRate'])}, "
              f"{percent(comparison['unadjustedSignificantRate'])}, {percent(comparison['coverage'])}")
    metrics = json.loads(json.dumps(base["metrics"]))
    for metric in metrics:
        metric.pop("lifts")
    comparisons = calibrate(executable, variant("cuped", name="cuped-aa", metrics=metrics), 10000, work)
    print("  A/A, 10,000 replications (adjusted, unadjusted false positives): " + "; ".join(
        f"{name} {percent(found[0]['significantRate'])}, {percent(found[0]['unadjustedSignificantRate'])}"
        for name, found in comparisons.items()))


def skew(executable, work):
    print("Skewed amounts, +10% (interval coverage; share of replications warned; coverage when warned, when not):")
    distributions = {
        "log-normal, sigma 1.5": {"distribution": "lognormal", "sigma": 1.5},
        "log-normal, sigma 1": {"distribution": "lognormal", "sigma": 1},
        "gamma, shape 4": {"distribution": "gamma", "shape": 4},
    }
    for label, shape in distributions.items():
        metric = dict(name="revenue", kind="continuous", baseline=10, lifts={"Paywall": {"Carousel": 0.1}}, **shape)
        for per_arm in [20, 100, 1000, 10000]:
            scenario = variant("true-effect", name=f"skew-{per_arm}", metrics=[metric],
                               analysis__minimumDevicesPerVariant=2)
            comparison = calibrate(executable, scenario, 2000, work, devices=2 * per_arm)["revenue"][0]
            print(f"  {label}, {per_arm} an arm: {percent(comparison['coverage'])}; "
                  f"{percent(comparison['skewWarningRate'] or 0)}; {percent(comparison['coverageWhenWarned'])}, "
                  f"{percent(comparison['coverageWhenNotWarned'])}")


SECTIONS = {"coverage": coverage, "small-samples": small_samples, "mixture": mixture, "spending": spending,
            "minimum-sample": minimum_sample, "ratios": ratios, "quantiles": quantiles,
            "winsorized": winsorized, "cuped": cuped, "skew": skew}


def main():
    chosen = sys.argv[1:] or list(SECTIONS)
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown:
        sys.exit(f"unknown section {', '.join(unknown)}: choose from {', '.join(SECTIONS)}")
    executable = bench()
    with tempfile.TemporaryDirectory() as folder:
        for name in chosen:
            SECTIONS[name](executable, pathlib.Path(folder))


if __name__ == "__main__":
    main()
