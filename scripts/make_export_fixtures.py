#!/usr/bin/env python3
"""Writes the analytics-export fixtures of `bench analyze --preset` and their expected counts.

Run by hand (polars from PyPI), never by `make test`:

    python3 -m pip install polars==2.1.0
    python3 scripts/make_export_fixtures.py

For each preset it writes docs/examples/exports/<preset>.<jsonl|csv>, an export in
the shape the vendor documents (docs/analyze.md cites each), holding unexposed users, users shown two
variants, purchases before and after a user's first exposure, automatic events, rows without a unit,
exposures without a variant, purchases without a price (a 100% coupon order: every eighth, which
the export leaves the property out of) and (Mixpanel) duplicated rows. The expected counts,
<preset>-expected.json, are computed with Polars from the written file, read back with Python's json
and csv modules: per experiment and variant, the users exposed, contaminated (shown another variant
of the experiment too) and first exposed (their earliest exposure, ties in file order), and over the
first-exposed users the purchases counted at or after their first exposure (converted users and the
summed price, a purchase without one adding 0 as SQL's SUM does), the purchases counted and how
many had no price; and over the same users the moments the analysis derives from their values: the
revenue's mean and sample variance, its covariance with the purchased indicator (the ratio
revenue/purchased), the covariate of revenue before the first exposure (CUPED), and the revenue
winsorized at the pooled 90th percentile (numpy's "inverted_cdf"). Nothing here shares code with the
bench.

    python3 scripts/make_export_fixtures.py large PATH [ROWS] [USERS]

writes instead, without Polars, one large export in Statsig's CSV shape (default 50,000,000 rows of
2,000,000 users) for docs/analyze.md's memory figures: day by day, every user has one event a day
in a fixed shuffle of the users (a session start, then an exposure for four users in five, a second
variant the next day for one user in fifty, then a purchase for one in twenty a day, about one in
seven of them without a value, and screen views), so the rows are in time order and every user stays
in the analysis to the end. USERS must share no factor with 7919, the shuffle's step.
"""

import csv
import datetime as dt
import io
import json
import pathlib
import math
import random
import sys

OUT = pathlib.Path(__file__).resolve().parent.parent / "docs/examples/exports"
START = dt.datetime(2026, 10, 20, tzinfo=dt.timezone.utc)
EXPERIMENTS = {"paywall-copy": ["control", "annual-first"], "onboarding": ["short", "long", "video"]}


def stories(seed):
    """Abstract events: (user, time, kind, experiment, variant, price), in no particular order."""
    rng = random.Random(seed)
    events = []
    purchases = 0
    for user in range(80):
        uid = f"u{user:03d}-{rng.randrange(16**6):06x}"
        t = START + dt.timedelta(seconds=rng.randrange(3 * 86400), microseconds=rng.randrange(10**6))
        events.append((uid, t, "session_start", None, None, None))
        shown = None
        if rng.random() < 0.8:
            experiment = rng.choice(sorted(EXPERIMENTS))
            variants = EXPERIMENTS[experiment]
            shown = t + dt.timedelta(minutes=rng.randrange(1, 600))
            variant = rng.choice(variants)
            events.append((uid, shown, "exposure", experiment, variant, None))
            if rng.random() < 0.3:
                events.append((uid, shown + dt.timedelta(minutes=rng.randrange(5, 2000)), "exposure", experiment, variant, None))
            if rng.random() < 0.15:
                other = rng.choice([v for v in variants if v != variant])
                events.append((uid, shown + dt.timedelta(minutes=rng.randrange(5, 2000)), "exposure", experiment, other, None))
            if rng.random() < 0.2:
                second = "onboarding" if experiment == "paywall-copy" else "paywall-copy"
                events.append((uid, shown + dt.timedelta(hours=rng.randrange(1, 30)), "exposure", second,
                               rng.choice(EXPERIMENTS[second]), None))
        for _ in range(rng.randrange(0, 4)):
            # Purchases before and after the exposure, some on the same day; every eighth with a
            # 100% coupon, which the tools send without the price.
            at = t + dt.timedelta(minutes=rng.randrange(-300, 3000))
            price = round(rng.choice([0.99, 4.99, 9.99, 12.99, 49.99]), 2)
            purchases += 1
            events.append((uid, at, "purchase", None, None, None if purchases % 8 == 0 else price))
        events.append((uid, t + dt.timedelta(minutes=rng.randrange(1, 900)), "screen_view", None, None, None))
    # Rows a real export has that count nowhere.
    events.append((None, START + dt.timedelta(hours=5), "purchase", None, None, 9.99))
    events.append((None, START + dt.timedelta(hours=6), "exposure", "onboarding", "short", None))
    events.append(("u-no-variant", START + dt.timedelta(hours=7), "exposure", "onboarding", None, None))
    rng.shuffle(events)
    return events


def insert_id(index):
    return f"{index:08x}-5e1f-4c6b-9a57-{index * 7919 % 16**12:012x}"


def amplitude(events):
    lines = []
    for index, (uid, t, kind, experiment, variant, price) in enumerate(events):
        row = {
            "$insert_id": insert_id(index), "amplitude_id": None if uid is None else 100000 + int(uid[1:4]) if uid[1:4].isdigit() else 999999,
            "app": 187523, "device_id": f"D-{uid}", "event_id": index, "event_time": t.strftime("%Y-%m-%d %H:%M:%S.%f"),
            "platform": "iOS", "session_id": int(t.timestamp() * 1000) // 3600000 * 3600000, "user_id": uid,
            "user_properties": {}, "uuid": insert_id(index * 3 + 1),
        }
        if kind == "exposure":
            row["event_type"] = "$exposure"
            row["event_properties"] = {"flag_key": experiment, **({"variant": variant} if variant else {})}
        elif kind == "purchase":
            row["event_type"] = "purchase"
            row["event_properties"] = {**({"price": price} if price is not None else {}), "currency": "USD"}
        elif kind == "session_start":
            row["event_type"] = "session_start"
            row["event_properties"] = {}
        else:
            # Amplitude Experiment's assignment event is no exposure.
            row["event_type"] = "[Experiment] Assignment" if index % 2 else "screen_view"
            row["event_properties"] = {}
        lines.append(json.dumps(row))
    return "\n".join(lines) + "\n"


def read_amplitude(text):
    rows = []
    for order, line in enumerate(text.splitlines()):
        row = json.loads(line)
        props = row["event_properties"]
        unit = None if row["amplitude_id"] is None else str(row["amplitude_id"])
        t = dt.datetime.strptime(row["event_time"], "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=dt.timezone.utc)
        rows.append((order, unit, t, row["event_type"] == "$exposure", props.get("flag_key"), props.get("variant"),
                     row["event_type"] == "purchase", props.get("price")))
    return rows


def mixpanel(events):
    lines = []
    for index, (uid, t, kind, experiment, variant, price) in enumerate(events):
        props = {"time": int(t.timestamp()), "distinct_id": uid, "$insert_id": insert_id(index), "mp_lib": "swift",
                 "$os": "iOS", "$app_version_string": "4.2.0"}
        if kind == "exposure":
            name = "$experiment_started"
            props.update({"Experiment name": experiment, "Variant name": variant})
        elif kind == "purchase":
            name = "Purchase"
            if price is not None:
                props["amount"] = price
        else:
            name = "$ae_session" if kind == "session_start" else "Screen Viewed"
        line = json.dumps({"event": name, "properties": props})
        lines.append(line)
        if index % 9 == 0:
            # Raw exports are not deduplicated: a row sent twice.
            lines.append(line)
    return "\n".join(lines) + "\n"


def read_mixpanel(text):
    rows, seen = [], set()
    for order, line in enumerate(text.splitlines()):
        row = json.loads(line)
        props = row["properties"]
        key = (row["event"], props.get("distinct_id"), props.get("time"), props.get("$insert_id"))
        if key in seen:
            continue
        seen.add(key)
        t = dt.datetime.fromtimestamp(props["time"], dt.timezone.utc)
        rows.append((order, props.get("distinct_id"), t, row["event"] == "$experiment_started", props.get("Experiment name"),
                     props.get("Variant name"), row["event"] == "Purchase", props.get("amount")))
    return rows


def segment(events):
    lines = []
    offsets = [dt.timezone.utc, dt.timezone(dt.timedelta(hours=2)), dt.timezone(dt.timedelta(hours=-5))]
    for index, (uid, t, kind, experiment, variant, price) in enumerate(events):
        local = t.astimezone(offsets[index % 3])
        stamp = local.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        anonymous = None if uid is None else f"anon-{uid}"
        user_id = uid if index % 4 else None
        message = {"type": "track", "messageId": insert_id(index), "anonymousId": anonymous, "userId": user_id,
                   "timestamp": stamp, "originalTimestamp": (t - dt.timedelta(seconds=2)).isoformat(),
                   "context": {"library": {"name": "analytics-ios", "version": "4.1.8"}}}
        if kind == "exposure":
            message["event"] = "Experiment Viewed"
            # Segment's spec: ids, or names where a tool sends names.
            message["properties"] = ({"experiment_id": experiment, "variation_id": variant} if index % 2
                                     else {"experiment_name": experiment, "variation_name": variant})
        elif kind == "purchase":
            message["event"] = "Order Completed"
            message["properties"] = {**({"revenue": price} if price is not None else {}), "currency": "USD"}
        elif kind == "session_start":
            message = {k: v for k, v in message.items() if k != "properties"}
            message["type"] = "identify"
            message["traits"] = {"plan": "free"}
        else:
            message["type"] = "screen"
            message["name"] = "Home"
            message["properties"] = {}
        lines.append(json.dumps(message))
    return "\n".join(lines) + "\n"


def read_segment(text):
    rows = []
    for order, line in enumerate(text.splitlines()):
        m = json.loads(line)
        props = m.get("properties") or {}
        unit = m.get("userId") or m.get("anonymousId")
        t = dt.datetime.fromisoformat(m["timestamp"].replace("Z", "+00:00"))
        is_track = m["type"] == "track"
        exposure = is_track and m.get("event") == "Experiment Viewed"
        rows.append((order, unit, t, exposure, props.get("experiment_id") or props.get("experiment_name"),
                     props.get("variation_id") or props.get("variation_name"),
                     is_track and m.get("event") == "Order Completed", props.get("revenue")))
    return rows


def statsig(events):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["user_id", "stable_id", "event_name", "event_value", "event_metadata", "company_metadata", "timestamp"])
    for index, (uid, t, kind, experiment, variant, price) in enumerate(events):
        stamp = t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond // 1000:03d} UTC"
        if kind == "exposure":
            meta = {"config": experiment, "ruleID": variant, "reason": "Network"} if variant else {"config": experiment, "reason": "Unrecognized"}
            writer.writerow([uid or "", f"s-{index}", "statsig::config_exposure", "", "", json.dumps(meta), stamp])
        elif kind == "purchase":
            value = "" if price is None else f"{price}"
            writer.writerow([uid or "", f"s-{index}", "purchase", value, json.dumps({"currency": "USD"}), "", stamp])
        else:
            writer.writerow([uid or "", f"s-{index}", "statsig::session_start" if kind == "session_start" else "screen_view", "", "", "", stamp])
    return out.getvalue()


def read_statsig(text):
    rows = []
    for order, row in enumerate(csv.DictReader(io.StringIO(text))):
        meta = json.loads(row["company_metadata"]) if row["company_metadata"] else {}
        t = dt.datetime.strptime(row["timestamp"], "%Y-%m-%d %H:%M:%S.%f UTC").replace(tzinfo=dt.timezone.utc)
        rows.append((order, row["user_id"] or None, t, row["event_name"] == "statsig::config_exposure", meta.get("config"),
                     meta.get("ruleID"), row["event_name"] == "purchase", float(row["event_value"]) if row["event_value"] else None))
    return rows


def firebase(events):
    """Firebase: a user's experiments are user properties on every event after the first exposure."""
    events = sorted(events, key=lambda e: (e[1], e[0] or ""))
    held = {}
    lines = []
    numbers = {"paywall-copy": "firebase_exp_3", "onboarding": "firebase_exp_7"}
    for index, (uid, t, kind, experiment, variant, price) in enumerate(events):
        if kind == "exposure":
            if variant is None:
                continue
            held.setdefault(uid, {})[numbers[experiment]] = str(EXPERIMENTS[experiment].index(variant))
        micros = str(int(t.timestamp()) * 10**6 + t.microsecond)
        slot = lambda **v: {"string_value": None, "int_value": None, "float_value": None, "double_value": None, **v}
        properties = [{"key": "first_open_time", "value": slot(int_value=1760000000000, set_timestamp_micros=micros)}]
        for key, value in sorted(held.get(uid, {}).items()):
            properties.append({"key": key, "value": slot(string_value=value, set_timestamp_micros=micros)})
        name = {"exposure": "screen_view", "purchase": "purchase", "session_start": "session_start"}.get(kind, "user_engagement")
        params = [{"key": "ga_session_id", "value": slot(int_value=int(t.timestamp()) // 3600)}]
        if kind == "purchase":
            if price is not None:
                params.append({"key": "value", "value": slot(double_value=price)})
            params.append({"key": "currency", "value": slot(string_value="USD")})
        lines.append(json.dumps({
            "event_date": t.strftime("%Y%m%d"), "event_timestamp": micros, "event_name": name, "event_params": params,
            "user_id": None, "user_pseudo_id": uid, "user_properties": properties, "platform": "IOS",
        }))
    return "\n".join(lines) + "\n"


def read_firebase(text):
    rows = []
    for order, line in enumerate(text.splitlines()):
        row = json.loads(line)
        t = dt.datetime.fromtimestamp(int(row["event_timestamp"]) // 10**6, dt.timezone.utc).replace(
            microsecond=int(row["event_timestamp"]) % 10**6)
        params = {p["key"]: p["value"] for p in row["event_params"]}
        price = params["value"]["double_value"] if "value" in params else None
        purchase = row["event_name"] == "purchase"
        exposures = [(p["key"], p["value"]["string_value"]) for p in row["user_properties"] if p["key"].startswith("firebase_exp_")]
        if not exposures:
            rows.append((order, row["user_pseudo_id"], t, False, None, None, purchase, price))
        for index, (experiment, variant) in enumerate(exposures):
            rows.append((order, row["user_pseudo_id"], t, True, experiment, variant, purchase and index == 0, price))
    return rows


def expected(rows):
    import numpy as np
    import polars as pl

    frame = pl.DataFrame(
        rows, orient="row",
        schema={"order": pl.Int64, "unit": pl.Utf8, "time": pl.Datetime("us", "UTC"), "exposure": pl.Boolean,
                "experiment": pl.Utf8, "variant": pl.Utf8, "purchase": pl.Boolean, "price": pl.Float64})
    frame = frame.filter(pl.col("unit").is_not_null() & (pl.col("unit") != ""))
    shown = frame.filter(pl.col("exposure") & pl.col("variant").is_not_null())
    first = (shown.sort(["time", "order"]).group_by(["experiment", "unit"], maintain_order=True)
             .agg(pl.col("variant").first().alias("first"), pl.col("time").first().alias("since"),
                  pl.col("variant").n_unique().alias("variants")))
    pairs = shown.select(["experiment", "unit", "variant"]).unique().join(first, on=["experiment", "unit"])
    exposed = pairs.group_by(["experiment", "variant"]).agg(
        pl.len().alias("exposed"), (pl.col("variants") > 1).sum().alias("contaminated"))
    # A purchase without a price counts and adds 0, as SQL's SUM does.
    purchases = frame.filter(pl.col("purchase")).select(["unit", pl.col("time").alias("at"), pl.col("price").fill_null(0.0)])
    counted = (first.join(purchases, on="unit", how="left")
               .with_columns(pl.when(pl.col("at") >= pl.col("since")).then(pl.col("price")).otherwise(None).alias("after"),
                             pl.when(pl.col("at") < pl.col("since")).then(pl.col("price")).otherwise(None).alias("before"))
               .group_by(["experiment", "unit", "first"])
               .agg(pl.col("after").count().alias("purchases"), pl.col("after").sum().alias("revenue"),
                    pl.col("before").sum().alias("covariate")))
    by_first = counted.group_by(["experiment", "first"]).agg(
        pl.len().alias("firstExposed"), (pl.col("purchases") > 0).sum().alias("converted"),
        pl.col("revenue").sum().alias("revenue"))
    table = exposed.join(by_first, left_on=["experiment", "variant"], right_on=["experiment", "first"], how="left")
    result = {}
    bought = frame.filter(pl.col("purchase"))
    counts = {"events": bought.height, "withoutProperty": bought["price"].null_count()}
    for row in table.sort(["experiment", "variant"]).iter_rows(named=True):
        result.setdefault(row["experiment"], {})[row["variant"]] = {
            "exposed": row["exposed"], "contaminated": row["contaminated"], "firstExposed": row["firstExposed"] or 0,
            "converted": row["converted"] or 0, "revenue": round(row["revenue"] or 0.0, 6)}
    for experiment, variants in result.items():
        devices = counted.filter(pl.col("experiment") == experiment)
        pooled = devices["revenue"].to_numpy()
        cap = float(np.quantile(pooled, 0.9, method="inverted_cdf"))
        for variant, entry in variants.items():
            mine = devices.filter(pl.col("first") == variant)
            revenue = mine["revenue"].to_numpy().astype(float)
            purchased = (mine["purchases"].to_numpy() > 0).astype(float)
            covariate = mine["covariate"].to_numpy().astype(float)
            if len(revenue) < 2:
                continue
            capped = np.minimum(revenue, cap)
            entry["moments"] = {
                "revenueMean": float(np.mean(revenue)), "revenueVariance": float(np.var(revenue, ddof=1)),
                "purchasedMean": float(np.mean(purchased)), "revenuePurchasedCovariance": float(np.cov(revenue, purchased, ddof=1)[0, 1]),
                "covariateMean": float(np.mean(covariate)), "covariateVariance": float(np.var(covariate, ddof=1)),
                "covariateCovariance": float(np.cov(covariate, revenue, ddof=1)[0, 1]),
                "cap": cap, "capped": int(np.sum(revenue > cap)), "winsorizedMean": float(np.mean(capped)),
                "winsorizedVariance": float(np.var(capped, ddof=1)),
            }
    return {"experiments": result, "purchases": counts}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    presets = {
        "amplitude": ("jsonl", amplitude, read_amplitude),
        "mixpanel": ("jsonl", mixpanel, read_mixpanel),
        "segment": ("jsonl", segment, read_segment),
        "statsig": ("csv", statsig, read_statsig),
        "firebase": ("jsonl", firebase, read_firebase),
    }
    for seed, (name, (extension, write, read)) in enumerate(presets.items(), start=28):
        text = write(stories(seed))
        (OUT / f"{name}.{extension}").write_text(text)
        (OUT / f"{name}-expected.json").write_text(json.dumps(expected(read(text)), indent=2, sort_keys=True) + "\n")
        print(f"{name}: {len(text.splitlines())} rows")


def large_statsig(path, rows, users):
    """Streams `rows` events of `users` users in Statsig's export shape to `path` (see the docstring)."""
    if users < 1 or math.gcd(7919, users) != 1:
        raise SystemExit(f"USERS must be positive and share no factor with 7919, not {users}")
    experiments = sorted(EXPERIMENTS)
    header = "user_id,stable_id,event_name,event_value,event_metadata,company_metadata,timestamp\n"
    exposure = '"{{""config"": ""{experiment}"", ""ruleID"": ""{variant}"", ""reason"": ""Network""}}"'
    written = 0
    with open(path, "w") as out:
        out.write(header)
        day = 0
        while written < rows:
            date = (START + dt.timedelta(days=day)).strftime("%Y-%m-%d")
            chunk = []
            for position in range(users):
                if written == rows:
                    break
                user = (position * 7919 + day * 104729) % users
                millisecond = position * 86_400_000 // users
                second = millisecond // 1000
                stamp = f"{date} {second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}.{millisecond % 1000:03d} UTC"
                uid = f"u{user:08d}"
                mix = (user * 2654435761 + day * 40503) % 1000
                if day == 0:
                    chunk.append(f"{uid},s-{written},statsig::session_start,,,,{stamp}\n")
                elif day in (1, 2) and user % 5 != 0 and (day == 1 or user % 50 == 1):
                    experiment = experiments[user % 2]
                    variants = EXPERIMENTS[experiment]
                    variant = variants[(user // 2 + (day - 1)) % len(variants)]
                    meta = exposure.format(experiment=experiment, variant=variant)
                    chunk.append(f"{uid},s-{written},statsig::config_exposure,,,{meta},{stamp}\n")
                elif day >= 2 and mix < 50:
                    value = "" if mix % 8 == 0 else f"{4.99 + (mix % 7) * 5:.2f}"
                    chunk.append(f'{uid},s-{written},purchase,{value},"{{""currency"": ""USD""}}",,{stamp}\n')
                else:
                    chunk.append(f"{uid},s-{written},screen_view,,,,{stamp}\n")
                written += 1
                if len(chunk) == 100_000:
                    out.write("".join(chunk))
                    chunk = []
            out.write("".join(chunk))
            day += 1
    print(f"{path}: {written} rows of {users} users over {day} days")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "large":
        large_statsig(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 50_000_000,
                      int(sys.argv[4]) if len(sys.argv) > 4 else 2_000_000)
    else:
        main()
