#!/usr/bin/env python3
"""The daily figures issue 63 holds a fitted world to, read from two Amplitude-shaped exports.

Written apart from the bench (it shares no code with Sources/), so that a fit is checked by
figures the fit did not compute: daily active devices, new devices a day (devices first seen,
after day 0), sessions per active day (`session_start` rows over active device-days), day-7
retention (of the devices first seen on days 1 to the last − 8, the share active 7 days later)
and each version's share of the day's active devices.

Usage: scripts/export_figures.py OBSERVED.jsonl FITTED.jsonl
Prints each figure for both, and exits 1 when one is outside issue 63's bound: active and new
devices within 10%, sessions per active day within 5%, day-7 retention within 4 points, every
version's share on every day within 6 points.
"""

import collections
import datetime
import json
import sys


def day_of(text):
    return datetime.date.fromisoformat(text[:10])


def figures(path):
    active = collections.defaultdict(set)
    sessions = 0
    versions = collections.defaultdict(dict)  # day -> device -> newest version seen
    first_day = None
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            date = day_of(row["event_time"])
            first_day = date if first_day is None or date < first_day else first_day
            device = row["amplitude_id"]
            active[date].add(device)
            if row["event_type"] == "session_start":
                sessions += 1
            version = row.get("version_name")
            if version:
                seen = versions[date].get(device)
                if seen is None or version_key(version) > version_key(seen):
                    versions[date][device] = version
    days = (max(active) - first_day).days + 1
    by_day = [active.get(first_day + datetime.timedelta(days=d), set()) for d in range(days)]
    seen, new = set(), []
    first_seen = {}
    for d, devices in enumerate(by_day):
        fresh = devices - seen
        new.append(len(fresh))
        for device in fresh:
            first_seen[device] = d
        seen |= devices
    cohort = [device for device, d in first_seen.items() if 1 <= d and d + 7 < days]
    retained = sum(1 for device in cohort if device in by_day[first_seen[device] + 7])
    shares = []
    for d in range(days):
        counts = collections.Counter(versions[first_day + datetime.timedelta(days=d)].values())
        total = max(sum(counts.values()), 1)
        shares.append({version: count / total for version, count in counts.items()})
    active_days = sum(len(devices) for devices in by_day)
    return {
        "days": days,
        "active": sum(len(devices) for devices in by_day) / days,
        "new": sum(new[1:]) / (days - 1),
        "sessions": sessions / max(active_days, 1),
        "retention": retained / max(len(cohort), 1),
        "shares": shares,
    }


def version_key(text):
    return [int(part) if part.isdigit() else 0 for part in text.split(".")]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: scripts/export_figures.py OBSERVED.jsonl FITTED.jsonl")
    observed, fitted = figures(sys.argv[1]), figures(sys.argv[2])
    failures = []

    def compare(name, bound, relative):
        a, b = observed[name], fitted[name]
        error = abs(b / a - 1) if relative else abs(b - a)
        shown = f"{error:.1%}" if relative else f"{error * 100:.1f} points"
        verdict = "ok" if error <= bound else "OUT"
        print(f"{name:>10}: export {a:.4g}, fitted world {b:.4g}: off by {shown} ({verdict})")
        if error > bound:
            failures.append(name)

    compare("active", 0.10, True)
    compare("new", 0.10, True)
    compare("sessions", 0.05, True)
    compare("retention", 0.04, False)
    days = min(observed["days"], fitted["days"])
    worst = (0.0, None, None)
    for d in range(days):
        for version in set(observed["shares"][d]) | set(fitted["shares"][d]):
            gap = abs(observed["shares"][d].get(version, 0) - fitted["shares"][d].get(version, 0))
            if gap > worst[0]:
                worst = (gap, version, d)
    verdict = "ok" if worst[0] <= 0.06 else "OUT"
    print(f"{'shares':>10}: largest gap {worst[0] * 100:.1f} points ({worst[1]} on day {worst[2]}) ({verdict})")
    if worst[0] > 0.06:
        failures.append("shares")
    if failures:
        print("outside issue 63's bounds: " + ", ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
