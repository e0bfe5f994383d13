#!/usr/bin/env python3
"""Writes the reference values the Statistics tests compare with.

Every number comes from scipy, an implementation independent of GSL, so a
passing test means two libraries agree. Run it from the repository's root:

    python3 scripts/make_fixtures.py

and commit the files it writes under Tests/StatisticsTests/Fixtures/.
"""

import json
import math
import pathlib

import scipy
from scipy import special, stats

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "StatisticsTests" / "Fixtures"


def distributions():
    """Tail probabilities and quantiles, from the centre to far in the tails."""
    normal_points = [-40.0, -8.5, -3.0, -1.959963984540054, -0.5, 0.0, 0.5, 1.0, 1.959963984540054, 3.0, 8.5, 37.5]
    chi_square_points = [
        (0.0, 1.0), (0.42, 1.0), (3.841458820694124, 1.0), (10.0, 2.0), (3.1, 3.0),
        (150.0, 4.0), (1500.0, 1.0), (1e-8, 1.0), (99.5, 100.0),
    ]
    quantile_points = [1e-300, 1e-12, 0.001, 0.025, 0.5, 0.8, 0.975, 0.999, 1 - 1e-12]
    log_beta_points = [(1.0, 1.0), (0.5, 0.5), (2.0, 3.0), (618.0, 11728.0), (1e-3, 1e6), (1e5, 2e5)]
    return {
        "generator": f"scipy {scipy.__version__}",
        "normalCDF": [{"z": z, "p": float(stats.norm.cdf(z))} for z in normal_points],
        "normalSurvival": [{"z": z, "p": float(stats.norm.sf(z))} for z in normal_points],
        "normalQuantile": [{"p": p, "z": float(stats.norm.ppf(p))} for p in quantile_points],
        "chiSquareSurvival": [
            {"x": x, "df": df, "p": float(stats.chi2.sf(x, df))} for x, df in chi_square_points
        ],
        "logBeta": [{"a": a, "b": b, "value": float(special.betaln(a, b))} for a, b in log_beta_points],
    }


def main():
    FIXTURES.mkdir(parents=True, exist_ok=True)
    path = FIXTURES / "distributions.json"
    path.write_text(json.dumps(distributions(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {path.relative_to(pathlib.Path.cwd()) if path.is_relative_to(pathlib.Path.cwd()) else path}")


if __name__ == "__main__":
    main()
