#!/usr/bin/env python3
"""A mobile app's analytics export made without the bench, for checking `bench fit` (issue 63).

The bench's own round trip (WorldFitTests) fits an export the bench simulated: its world is the
fit's model. This generator shares no code and no model with the bench. Its devices are not the
bench's: activity drawn from a three-part mixture (light, regular and heavy users) that fades
with a device's age and lifts on weekends, churn that is faster in a device's first week (steeply
so in the "churn" profile, a game's), new
installs with a weekly rhythm and a campaign, sessions as 1 + a Poisson count, the App Store's
phased release for iOS automatic updaters (Apple's 1, 2, 5, 10, 20, 50, 100%) beside manual
updaters with a lognormal delay, and Google Play's staged rollout (a share raised on dates,
applying to updates and new installs alike). It writes Amplitude's export shape: JSON Lines with
`event_time` as "YYYY-MM-DD HH:MM:SS.ffffff", a numeric `amplitude_id`, `session_id` in
milliseconds, `version_name`, `platform`, and events other than sessions mixed in.

`scripts/check-foreign-fit.sh` fits what this writes and compares the fitted world's own export
with it by issue 63's bounds.

Usage: scripts/foreign_world.py --seed N --out export.jsonl [--devices N] [--days N]
       [--profile steady|growth|churn]
"""

import argparse
import datetime
import json
import math
import random
import sys

PHASED_RELEASE = [0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 1.0]  # Apple's share of automatic updaters by day


def profile_settings(profile):
    if profile == "churn":
        # A game: most new players leave in their first days, the rest stay keen.
        return dict(existing_share=0.4, campaign=(12, 4, 5.0), ios_share=0.5, auto_share=0.6,
                    releases=[("1.12", 0), ("1.13", 15), ("1.14", 36)],
                    play_stages={15: 0.05, 17: 0.3, 20: 1.0, 36: 1.0},
                    sessions=(1.8, 2.2), fade=1.2, early_hazard=0.2, hazard=0.01)
    if profile == "growth":
        return dict(existing_share=0.35, campaign=(18, 5, 4.0), ios_share=0.45, auto_share=0.55,
                    releases=[("4.8.0", 0), ("4.9.0", 9), ("4.10.0", 23), ("5.0.0", 37)],
                    play_stages={9: 0.2, 12: 0.5, 15: 1.0, 23: 0.1, 27: 1.0, 37: 0.5, 40: 1.0},
                    sessions=(0.6, 1.1), fade=0.5, early_hazard=0.04, hazard=0.008)
    return dict(existing_share=0.7, campaign=(30, 3, 3.0), ios_share=0.6, auto_share=0.7,
                releases=[("2.3.1", 0), ("2.4.0", 12), ("2.5.0", 33)],
                play_stages={12: 0.1, 14: 0.5, 17: 1.0, 33: 0.2, 36: 1.0},
                sessions=(1.0, 0.7), fade=0.3, early_hazard=0.04, hazard=0.008)


def poisson(rng, mean):
    limit, k, product = math.exp(-mean), 0, rng.random()
    while product > limit:
        k += 1
        product *= rng.random()
    return k


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--devices", type=int, default=8000, help="devices over the whole export")
    parser.add_argument("--days", type=int, default=56)
    parser.add_argument("--profile", choices=["steady", "growth", "churn"], default="steady")
    arguments = parser.parse_args()
    if arguments.devices < 100 or not 21 <= arguments.days <= 365:
        sys.exit("foreign_world.py: --devices must be at least 100 and --days 21 to 365")
    rng = random.Random(arguments.seed)
    settings = profile_settings(arguments.profile)
    days = arguments.days
    start = datetime.datetime(2026, 3, 2, tzinfo=datetime.timezone.utc)  # a Monday
    releases = [(version, day) for version, day in settings["releases"] if day < days]

    # Installs: devices installed before day 0, and new ones by a weekly rhythm and a campaign.
    existing = int(arguments.devices * settings["existing_share"])
    weights = []
    campaign_day, campaign_days, campaign_factor = settings["campaign"]
    for day in range(days):
        weekday = (start + datetime.timedelta(days=day)).weekday()
        weight = 1.25 if weekday >= 5 else 1.0
        if campaign_day <= day < campaign_day + campaign_days:
            weight *= campaign_factor
        weights.append(weight)
    new_total = arguments.devices - existing
    install_days = [-1] * existing + rng.choices(range(days), weights=weights, k=new_total)

    rows = []
    amplitude_id = 4_000_000
    for index, install_day in enumerate(install_days):
        amplitude_id += rng.randint(1, 9)
        ios = rng.random() < settings["ios_share"]
        platform = "iOS" if ios else "Android"
        kind = rng.random()
        if kind < 0.35:
            base = rng.uniform(0.02, 0.12)
        elif kind < 0.85:
            base = rng.uniform(0.15, 0.55)
        else:
            base = rng.uniform(0.6, 0.95)
        automatic = rng.random() < settings["auto_share"]
        manual_delay = math.exp(rng.gauss(math.log(5), 0.9))
        play_draw = rng.random()
        # A device's version on a day: the newest release it has taken by then.
        taken = 0 if install_day < 0 else None
        first_day = max(install_day, 0)
        if taken is None:
            # A new install takes the newest version its store serves it that day.
            taken = 0
            for rank, (_, release_day) in enumerate(releases):
                if release_day <= install_day and (ios or served_on_play(settings, releases, rank, install_day, play_draw)):
                    taken = rank
        user = f"user-{index}" if rng.random() < 0.8 else None
        stopped = False
        for day in range(first_day, days):
            age = day - install_day if install_day >= 0 else 60
            hazard = settings["early_hazard"] if age < 7 else settings["hazard"]
            if day > first_day and rng.random() < hazard:
                stopped = True
            if stopped:
                break
            weekday = (start + datetime.timedelta(days=day)).weekday()
            probability = base * (1 + settings["fade"] * math.exp(-age / 4)) * (1.2 if weekday >= 5 else 1.0)
            active = day == install_day or rng.random() < min(probability, 1.0)
            # Updates: a release served by the device's store reaches an automatic updater by the
            # phased release (iOS) the next day it is served, a manual one after its delay.
            for rank in range(taken + 1, len(releases)):
                release_day = releases[rank][1]
                if day < release_day:
                    break
                since = day - release_day
                if ios:
                    served = True
                    phased = PHASED_RELEASE[min(since, 6)]
                    gets = (automatic and play_draw < phased) or (not automatic and since >= manual_delay)
                else:
                    served = served_on_play(settings, releases, rank, day, play_draw)
                    gets = served and (automatic or since >= manual_delay)
                if gets and active or (gets and automatic):
                    taken = rank
            if not active:
                continue
            version = releases[taken][0]
            sessions = 1 + poisson(rng, settings["sessions"][0 if ios else 1])
            moment = start + datetime.timedelta(days=day, hours=rng.uniform(6, 20))
            for session in range(sessions):
                when = moment + datetime.timedelta(minutes=session * rng.uniform(25, 90))
                if when.date() != moment.date():
                    break
                row = {"amplitude_id": amplitude_id, "user_id": user, "device_id": f"dev-{index:06x}",
                       "event_type": "session_start",
                       "event_time": when.strftime("%Y-%m-%d %H:%M:%S.%f"),
                       "session_id": int(when.timestamp() * 1000), "version_name": version,
                       "platform": platform, "os_name": "ios" if ios else "android", "country": "Germany"}
                rows.append(row)
                for _ in range(poisson(rng, 1.5)):
                    later = when + datetime.timedelta(seconds=rng.uniform(5, 600))
                    extra = dict(row, event_type=rng.choice(["screen_view", "workout_started", "paywall_seen"]),
                                 event_time=later.strftime("%Y-%m-%d %H:%M:%S.%f"))
                    rows.append(extra)
    rows.sort(key=lambda row: row["event_time"])
    with open(arguments.out, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, separators=(",", ":")) + "\n")


def served_on_play(settings, releases, rank, day, draw):
    """Whether Google Play serves release `rank` on `day` to a device whose rollout draw is `draw`."""
    release_day = releases[rank][1]
    share = 0.0
    for stage_day, stage_share in sorted(settings["play_stages"].items()):
        if release_day <= stage_day <= day and (rank + 1 == len(releases) or stage_day < releases[rank + 1][1]):
            share = stage_share
    return draw < share


if __name__ == "__main__":
    main()
