#!/usr/bin/env python3
"""Writes the scenarios docs/performance.md times for issue 62's costs, from the committed ones.

- long-audience-<scenario>.json: each committed single-service scenario at 300 devices, its
  experiment's audience a list of 20,001 countries (the devices' own "DE" last);
- tiny-alpha-peeking.json: peeking.json at 300 devices and 20 days with `analysis.alpha` 1e-300.

Usage: scripts/cost_scenarios.py OUTDIR
Then, for example: /usr/bin/time swift run -c release bench OUTDIR/long-audience-statsig-salt-change.json
--replications 2 --out OUTDIR/runs --quiet
"""

import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SERVICES = ["eppo-split-change", "growthbook-weight-change", "launchdarkly-rollout-change",
            "optimizely-traffic-change", "statsig-salt-change", "unleash-rollout-change"]


def committed(name):
    with open(os.path.join(ROOT, "scenarios", f"{name}.json"), encoding="utf-8") as handle:
        return json.load(handle)


def write(folder, name, scenario):
    with open(os.path.join(folder, f"{name}.json"), "w", encoding="utf-8") as handle:
        json.dump(scenario, handle)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/cost_scenarios.py OUTDIR")
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for name in SERVICES:
        scenario = committed(name)
        scenario["name"] = f"long-audience-{name}"
        scenario["devices"] = 300
        segments = scenario.setdefault("population", {"segments": [{"name": "everyone", "share": 1}]})["segments"]
        for segment in segments:
            segment.setdefault("attributes", {})["country"] = "DE"
        start = next(change["start"] for change in scenario["service"]["changes"] if "start" in change)
        start["audience"] = {"attributes": {"country": [f"C{index}" for index in range(20000)] + ["DE"]}}
        write(folder, scenario["name"], scenario)
    peeking = committed("peeking")
    peeking.update(name="tiny-alpha-peeking", devices=300, days=min(peeking["days"], 20))
    peeking.setdefault("analysis", {})["alpha"] = 1e-300
    write(folder, "tiny-alpha-peeking", peeking)


if __name__ == "__main__":
    main()
