#!/usr/bin/env python3
"""Writes the conformance fixtures of the Bucketing module from the vendors' own SDKs.

The fixtures are what `optimizely-sdk`, `growthbook`, `launchdarkly-server-sdk`, `UnleashClient`, `eppo-server-sdk` and `statsig` (their Python SDKs,
from PyPI) decide for
thousands of ids: hashes, buckets, bucket ranges, conditions and whole decisions. The Swift tests
compare the Bucketing module with them bit for bit, so `make test` never needs the SDKs.

Run: python3 scripts/make_vendor_fixtures.py   (or `make vendor-fixtures`)
It installs the pinned SDK versions into a virtual environment under .build/vendor-sdks first.
"""
import json
import os
import pathlib
import random

from pinned_packages import rerun_with

OPTIMIZELY = "optimizely-sdk==5.7.0"
GROWTHBOOK = "growthbook==4.0.0"
LAUNCHDARKLY = "launchdarkly-server-sdk==9.20.0"
UNLEASH = "UnleashClient==6.9.1"
EPPO = "eppo-server-sdk==4.4.1"
STATSIG = "statsig==0.72.1"
ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "BucketingTests" / "Fixtures"
ENV = ROOT / ".build" / "vendor-sdks"


def ensure_sdks():
    """Re-runs this script inside a virtual environment that holds the pinned SDKs."""
    rerun_with([OPTIMIZELY, GROWTHBOOK, LAUNCHDARKLY, UNLEASH, EPPO, STATSIG], ENV, "LAB_BENCH_VENDOR_ENV", __file__)


def ids(rng, count):
    """User ids: plain, long, non-ASCII, with spaces, and the empty id."""
    fixed = ["", "a", "user-0", "qa-user", "über", "ユーザー42", "😀 emoji", "id with spaces", "x" * 200]
    return fixed + [f"user-{rng.randrange(10**9)}" for _ in range(count - len(fixed))]


def attributes(rng):
    """Attributes as an app sends them: platform, app version (with odd versions), sessions."""
    result = {}
    if rng.random() < 0.9:
        result["platform"] = rng.choice(["iOS", "Android", "ios"])
    if rng.random() < 0.9:
        result["app_version"] = rng.choice(
            ["1.9.3", "2.0.0", "2.1.0", "2.1.0-beta", "2.10.1", "3.0.0", "3.0", "2", "2.1.0+build5", "bad version"])
    if rng.random() < 0.8:
        result["sessions"] = rng.choice([0, 1, 5, 6, 10, 2.5])
    return result


# MARK: - Optimizely

def optimizely_datafile():
    def audience(id_, name, conditions):
        return {"id": id_, "name": name, "conditions": json.dumps(conditions)}

    def leaf(name, match, value):
        return {"name": name, "type": "custom_attribute", "match": match, "value": value}

    def experiment(id_, key, variations, allocation, status="Running", audience_conditions=None, forced=None,
                   layer="layer-" + "x"):
        return {
            "id": id_, "key": key, "status": status, "layerId": layer,
            "variations": [{"id": vid, "key": vkey, "featureEnabled": enabled, "variables": variables}
                           for vid, vkey, enabled, variables in variations],
            "trafficAllocation": [{"entityId": entity, "endOfRange": end} for entity, end in allocation],
            "audienceIds": [], "audienceConditions": audience_conditions or [],
            "forcedVariations": forced or {},
        }

    plain = lambda vid, key: (vid, key, False, [])
    return {
        "version": "4", "projectId": "1", "accountId": "1", "revision": "7", "anonymizeIP": False,
        "botFiltering": False, "attributes": [], "events": [],
        "audiences": [
            audience("10", "iOS", ["and", ["or", leaf("platform", "exact", "iOS")]]),
            audience("11", "Modern", ["and", ["or", leaf("app_version", "semver_ge", "2.1.0")]]),
            audience("12", "Engaged", ["and", ["or", leaf("sessions", "gt", 5)]]),
            audience("13", "Beta", ["and", leaf("app_version", "semver_lt", "3.0.0"), ["not", leaf("platform", "substring", "And")]]),
        ],
        "experiments": [
            experiment("1001", "paywall_copy", [plain("2001", "control"), plain("2002", "treatment")],
                       [("2001", 5000), ("2002", 10000)], forced={"qa-user": "treatment"}),
            experiment("1002", "onboarding", [plain("2011", "long"), plain("2012", "short"), plain("2013", "none")],
                       [("2011", 3000), ("2012", 6000), ("2013", 8000)],
                       audience_conditions=["or", "10", "11"]),
            experiment("1003", "paused_test", [plain("2021", "a"), plain("2022", "b")],
                       [("2021", 5000), ("2022", 10000)], status="Paused"),
            experiment("1004", "single", [plain("2031", "only")], [("2031", 10000)],
                       audience_conditions=["and", "12", ["not", "13"]]),
            experiment("1007", "checkout_test",
                       [("2071", "off", False, [{"id": "v1", "value": "Pay"}]),
                        ("2072", "on", True, [{"id": "v1", "value": "Buy now"}])],
                       [("2071", 2500), ("2072", 5000)], audience_conditions=["or", "13"]),
        ],
        "groups": [{
            "id": "g1", "policy": "random", "trafficAllocation": [{"entityId": "1005", "endOfRange": 4000},
                                                                  {"entityId": "1006", "endOfRange": 8000}],
            "experiments": [
                dict(experiment("1005", "exclusive_a", [plain("2051", "a0"), plain("2052", "a1")],
                                [("2051", 5000), ("2052", 10000)]), groupId="g1", groupPolicy="random"),
                dict(experiment("1006", "exclusive_b", [plain("2061", "b0"), plain("2062", "b1")],
                                [("2061", 7000), ("2062", 10000)]), groupId="g1", groupPolicy="random"),
            ],
        }],
        "featureFlags": [{
            "id": "f1", "key": "new_checkout", "experimentIds": ["1007"], "rolloutId": "r1",
            "variables": [{"id": "v1", "key": "label", "type": "string", "defaultValue": "Checkout"}],
        }],
        "rollouts": [{
            "id": "r1",
            "experiments": [
                experiment("3001", "ios_rollout", [("4001", "ios_on", True, [{"id": "v1", "value": "Tap to pay"}])],
                           [("4001", 5000)], audience_conditions=["or", "10"], layer="r1"),
                experiment("3002", "everyone_else", [("4002", "ee_on", True, [])], [("4002", 2000)], layer="r1"),
            ],
        }],
    }


def optimizely_fixtures(rng):
    from optimizely import optimizely as sdk
    from optimizely.bucketer import Bucketer
    from optimizely.lib import pymmh3
    from optimizely.helpers.condition import CustomAttributeConditionEvaluator
    import logging

    bucketer = Bucketer()
    hashes = []
    for value in ids(rng, 1500):
        for suffix in ["", "1001", "g1"]:
            key = value + suffix
            hashes.append({"key": key, "hash": pymmh3.hash(key, 1) & 0xFFFFFFFF,
                           "bucket": bucketer._generate_bucket_value(key)})

    class NoLog:
        def __getattr__(self, _):
            return lambda *a, **k: None

    versions = []
    targets = ["2.1.0", "2.1", "2", "3.0.0-beta", "2.1.0+build", "2.1.0-beta.1"]
    users = ["2.1.0", "2.1.1", "2.0.9", "2.10.0", "2.1", "2", "3.0.0-beta", "3.0.0-alpha", "3.0.0", "2.1.0+build5",
             "2.1.0-beta.1", "2.1.0-beta.2", "1.2.3.4", "a.b.c", "2.1.0 ", "", "2.-1.0", "10.0.0"]
    for target in targets:
        for user in users:
            for match in ["semver_eq", "semver_lt", "semver_le", "semver_gt", "semver_ge"]:
                evaluator = CustomAttributeConditionEvaluator(
                    [["v", target, "custom_attribute", match]], type("C", (), {"get_user_attributes": lambda s: {"v": user}})(),
                    NoLog())
                versions.append({"target": target, "user": user, "match": match, "result": evaluator.evaluate(0)})

    datafile = optimizely_datafile()
    client = sdk.Optimizely(json.dumps(datafile), logger=None, skip_json_validation=True)
    decisions = []
    experiment_keys = ["paywall_copy", "onboarding", "paused_test", "single", "checkout_test", "exclusive_a", "exclusive_b"]
    for user in ids(rng, 2500):
        attrs = attributes(rng)
        row = {"id": user, "attributes": attrs, "variations": {}, "features": {}}
        for key in experiment_keys:
            row["variations"][key] = client.get_variation(key, user, attrs)
        enabled = client.is_feature_enabled("new_checkout", user, attrs)
        label = client.get_feature_variable_string("new_checkout", "label", user, attrs)
        row["features"]["new_checkout"] = {"enabled": enabled, "label": label}
        decisions.append(row)
    return {"sdk": OPTIMIZELY, "hashes": hashes, "versions": versions, "datafile": datafile, "decisions": decisions}


# MARK: - GrowthBook

def growthbook_conditions():
    return [
        {"platform": "iOS"},
        {"platform": {"$ne": "iOS"}},
        {"platform": {"$in": ["iOS", "Android"]}},
        {"platform": {"$nin": ["iOS"]}},
        {"platform": {"$exists": True}},
        {"platform": {"$exists": False}},
        {"sessions": {"$gt": 5}},
        {"sessions": {"$gte": 5}},
        {"sessions": {"$lt": 5}},
        {"sessions": {"$lte": 1}},
        {"sessions": {"$eq": 10}},
        {"sessions": 6},
        {"app_version": {"$vgt": "2.1.0"}},
        {"app_version": {"$vgte": "2.1.0"}},
        {"app_version": {"$vlt": "3.0.0"}},
        {"app_version": {"$vlte": "2.1"}},
        {"app_version": {"$veq": "2.1.0"}},
        {"app_version": {"$vne": "2.1.0"}},
        {"app_version": {"$regex": "^2\\."}},
        {"$and": [{"platform": "iOS"}, {"sessions": {"$gte": 5}}]},
        {"$or": [{"platform": "Android"}, {"app_version": {"$vgte": "3.0.0"}}]},
        {"$nor": [{"platform": "iOS"}]},
        {"$not": {"platform": "iOS"}},
        {"platform": {"$not": {"$eq": "iOS"}}},
        {"platform": "iOS", "sessions": {"$gt": 0}},
        {"missing": {"$exists": False}},
        {"missing": None},
        {},
        {"$or": []},
        {"$and": []},
        {"sessions": {"$gt": "5"}},
        {"platform": {"$gt": "A"}},
        {"platform": {"$in": []}},
        {"sessions": {"$unknown": 1}},
    ]


def feature_results(gb, keys):
    """What the SDK reports for each feature: value, source, deciding rule, and the experiment's variation and hash."""
    results = {}
    for key in keys:
        result = gb.eval_feature(key)
        experiment = result.experimentResult
        results[key] = {"value": result.value, "source": result.source, "ruleId": result.ruleId or "",
                        "variationId": experiment.variationId if experiment else None,
                        "bucket": experiment.bucket if experiment and experiment.hashUsed else None}
    return results


def growthbook_fixtures(rng):
    from growthbook import core, GrowthBook, Experiment, InMemoryStickyBucketService

    words = ids(rng, 1200)
    fnv = [{"value": w, "fnv1a32": core.fnv1a32(w)} for w in words]
    hashes = []
    for w in words[:600]:
        for seed in ["", "exp-key", "seed-é"]:
            for version in [1, 2]:
                hashes.append({"seed": seed, "value": w, "version": version, "hash": core.gbhash(seed, w, version)})
    ranges = []
    weight_cases = [None, [0.5, 0.5], [0.2, 0.8], [0.1, 0.2, 0.7], [1 / 3, 1 / 3, 1 / 3], [0.5, 0.6], [0.4, 0.4],
                    [1.0], [0.0, 1.0], [-0.5, 1.5], [0.995, 0.0], [0.25, 0.25, 0.25, 0.25]]
    for weights in weight_cases:
        count = len(weights) if weights else 2
        for coverage in [0, 0.25, 0.5, 1, 1.5, -0.5]:
            ranges.append({"count": count, "coverage": coverage, "weights": weights,
                           "ranges": [list(r) for r in core.getBucketRanges(count, coverage, weights)]})
    namespaces = []
    for w in words[:800]:
        for namespace in [["pricing", 0, 0.5], ["pricing", 0.5, 1], ["onboarding", 0.2, 0.4]]:
            namespaces.append({"id": w, "namespace": namespace, "in": core.inNamespace(w, tuple(namespace))})

    conditions = []
    for condition in growthbook_conditions():
        for _ in range(25):
            attrs = attributes(rng)
            conditions.append({"condition": condition, "attributes": attrs,
                               "result": core.evalCondition(attrs, condition)})

    experiments = [
        {"key": "paywall", "variations": [0, 1]},
        {"key": "weights", "variations": [0, 1, 2], "weights": [0.2, 0.3, 0.5], "hashVersion": 2},
        {"key": "partial", "variations": [0, 1], "coverage": 0.4, "seed": "custom-seed"},
        {"key": "bad-weights", "variations": [0, 1], "weights": [0.7, 0.7]},
        {"key": "no-coverage", "variations": [0, 1], "coverage": 0},
        {"key": "single", "variations": [0]},
        {"key": "ns", "variations": [0, 1], "namespace": ["pricing", 0, 0.5]},
        {"key": "targeted", "variations": [0, 1], "condition": {"app_version": {"$vgte": "2.1.0"}, "platform": "iOS"}},
        {"key": "forced", "variations": [0, 1], "force": 1},
        {"key": "stopped", "variations": [0, 1], "status": "stopped"},
        {"key": "inactive", "variations": [0, 1], "active": False},
    ]
    runs = []
    for user in words[:1500]:
        attrs = dict(attributes(rng), id=user)
        gb = GrowthBook(attributes=attrs)
        row = {"id": user, "attributes": attrs, "results": {}}
        for spec in experiments:
            args = dict(spec)
            if "namespace" in args:
                args["namespace"] = tuple(args["namespace"])
            result = gb.run(Experiment(**args))
            row["results"][spec["key"]] = {"inExperiment": result.inExperiment, "variationId": result.variationId,
                                           "hashUsed": result.hashUsed, "bucket": result.bucket}
        runs.append(row)

    # Sticky bucketing: the same users through a change of weights, then a new bucket version, then a minimum
    # one, as a feature's experiment rule (the SDK loads a user's sticky assignments for the features it knows).
    steps = [
        {"weights": [0.5, 0.5], "bucketVersion": 0, "minBucketVersion": 0},
        {"weights": [0.8, 0.2], "bucketVersion": 0, "minBucketVersion": 0},
        {"weights": [0.8, 0.2], "bucketVersion": 1, "minBucketVersion": 0},
        {"weights": [0.8, 0.2], "bucketVersion": 2, "minBucketVersion": 2},
    ]
    sticky = []
    for user in words[:500]:
        service = InMemoryStickyBucketService()
        results = []
        for step in steps:
            rule = dict(key="sticky", variations=[0, 1], meta=[{"key": "c"}, {"key": "t"}], hashAttribute="id", **step)
            gb = GrowthBook(attributes={"id": user}, sticky_bucket_service=service,
                            features={"sticky-feature": {"defaultValue": -1, "rules": [rule]}})
            result = gb.eval_feature("sticky-feature")
            experiment = result.experimentResult
            results.append({"value": result.value, "source": result.source,
                            "stickyBucketUsed": experiment.stickyBucketUsed if experiment else None})
        sticky.append({"id": user, "results": results})

    payload = {"features": {
        "checkout-label": {"defaultValue": "Checkout", "rules": [
            {"condition": {"platform": "Android"}, "force": "Pay", "coverage": 0.5, "hashAttribute": "id"},
            {"key": "checkout-exp", "variations": ["Checkout", "Buy now"], "weights": [0.5, 0.5],
             "coverage": 0.8, "hashAttribute": "id", "seed": "chk", "hashVersion": 2,
             "meta": [{"key": "0"}, {"key": "1"}], "name": "Checkout copy", "phase": "0"},
        ]},
        "dark-mode": {"defaultValue": False, "rules": [
            {"condition": {"app_version": {"$vgte": "3.0.0"}}, "force": True},
        ]},
    }}
    features = []
    for user in words[:1500]:
        attrs = dict(attributes(rng), id=user)
        gb = GrowthBook(attributes=attrs, features=payload["features"])
        features.append({"id": user, "attributes": attrs,
                         "values": {key: gb.eval_feature(key).value for key in payload["features"]},
                         "sources": {key: gb.eval_feature(key).source for key in payload["features"]}})
    # Feature evaluation as `bench bucket` prints it: the first rule that applies ends it. Rollouts (a force
    # rule with a coverage or a range) before and after experiment rules, a rollout hashed on another
    # attribute with a fallback, an experiment hashed on a device id the app gives, a feature with only a
    # default value, values of every JSON type, rule ids as the SDK reports them.
    rollout_payload = {"features": {
        "price": {"defaultValue": 9.99, "rules": [
            {"id": "fr_qa", "condition": {"platform": "ios"}, "force": 0.99},
            {"id": "fr_rollout", "force": 12.99, "coverage": 0.25, "hashAttribute": "id"},
            {"id": "fr_exp", "key": "price-test", "variations": [9.99, 12.99, 14.99], "weights": [0.4, 0.3, 0.3],
             "coverage": 0.9, "hashAttribute": "id", "seed": "price-seed",
             "meta": [{"key": "control"}, {"key": "mid"}, {"key": "high"}]},
        ]},
        "banner": {"defaultValue": {"text": "Hi", "color": "blue"}, "rules": [
            {"id": "fr_dev", "key": "banner-test", "variations": [{"text": "Hi", "color": "blue"}, {"text": "Hey", "color": "red"}],
             "hashAttribute": "deviceId", "meta": [{"key": "a"}, {"key": "b"}]},
        ]},
        "new-onboarding": {"defaultValue": False, "rules": [
            {"id": "fr_range", "force": True, "range": [0.3, 0.6], "hashAttribute": "deviceId", "fallbackAttribute": "id",
             "seed": "onb"},
            {"id": "fr_half", "force": False, "coverage": 0.5, "hashAttribute": "company", "fallbackAttribute": "id"},
        ]},
        "tabs": {"defaultValue": ["home", "search"], "rules": []},
        "legacy-flag": {"defaultValue": None},
    }}
    device_ids = [None, "", 0, 12345, 7.5, "dev-a", "dev-b", "デバイス", "😀", "d" * 300, True]
    rollouts = []
    for user in words[:1000]:
        attrs = dict(attributes(rng), id=user)
        device = rng.choice(device_ids)
        if device is not None:
            attrs["deviceId"] = device
        if rng.random() < 0.3:
            attrs["company"] = rng.choice(["acme", "", "globex"])
        gb = GrowthBook(attributes=attrs, features=rollout_payload["features"])
        rollouts.append({"id": user, "attributes": attrs, "results": feature_results(gb, rollout_payload["features"])})
    # The newer operators: case-insensitive membership, regular expressions and their negations, on
    # attributes in every case and shape (a seeded generator of their own, so the sections above stay as
    # they were).
    operator_rng = random.Random(20261126)
    operator_conditions = [
        {"platform": {"$ini": ["ios", "ANDROID"]}},
        {"platform": {"$nini": ["ios"]}},
        {"tags": {"$ini": ["Beta", "vip"]}},
        {"tags": {"$nini": ["BETA"]}},
        {"tags": {"$alli": ["beta", "VIP"]}},
        {"tags": {"$all": ["beta", "vip"]}},
        {"tags": {"$alli": [{"$regexi": "^b"}, "vip"]}},
        {"platform": {"$regexi": "^iOS$"}},
        {"platform": {"$notRegex": "^iOS$"}},
        {"platform": {"$notRegexi": "^ios$"}},
        {"platform": {"$notRegex": "[unclosed"}},
        {"platform": {"$regexi": "[unclosed"}},
        {"platform": {"$ini": "ios"}},
        {"sessions": {"$ini": [5, "5"]}},
        {"tags": {"$ini": []}},
        {"$or": [{"platform": {"$regexi": "android"}}, {"tags": {"$alli": ["PRO"]}}]},
        {"$not": {"tags": {"$nini": ["vip"]}}},
    ]
    operator_cases = []
    for condition in operator_conditions:
        for _ in range(30):
            attrs = {}
            if operator_rng.random() < 0.85:
                attrs["platform"] = operator_rng.choice(["iOS", "ios", "IOS", "Android", "android", "Web", "", 5])
            if operator_rng.random() < 0.8:
                size = operator_rng.randrange(0, 4)
                attrs["tags"] = [operator_rng.choice(["beta", "Beta", "BETA", "vip", "VIP", "pro", "Pro", 5, None])
                                 for _ in range(size)]
            if operator_rng.random() < 0.5:
                attrs["sessions"] = operator_rng.choice([5, "5", 6, None])
            operator_cases.append({"condition": condition, "attributes": attrs,
                                   "result": core.evalCondition(attrs, condition)})
    # The newer payloads' structure: saved groups ($inGroup/$notInGroup, in both of their shapes and of a
    # type this SDK does not know), filters (the namespaces that replaced `namespace`), explicit variation
    # ranges, and prerequisites (parentConditions) that skip a rule, end the evaluation as a gate, or meet
    # a cycle.
    structure_payload = {
        "savedGroups": {
            "beta-testers": ["u-beta-1", "u-beta-2", "user-0", "a"],
            "staff": {"type": "list", "values": ["qa-user", "über"]},
            "future": {"type": "something-new", "values": ["a"]},
            "broken": "not a list",
        },
        "features": {
            "beta-banner": {"defaultValue": "none", "rules": [
                {"id": "fr_beta", "condition": {"id": {"$inGroup": "beta-testers"}}, "force": "beta"},
                {"id": "fr_staff", "condition": {"id": {"$inGroup": "staff"}}, "force": "staff"},
                {"id": "fr_future", "condition": {"id": {"$inGroup": "future"}}, "force": "future"},
                {"id": "fr_broken", "condition": {"id": {"$notInGroup": "broken"}}, "force": "broken"},
                {"id": "fr_outsiders", "condition": {"id": {"$notInGroup": "beta-testers"}}, "force": "everyone"},
            ]},
            "filtered-test": {"defaultValue": 0, "rules": [
                {"id": "fr_filters", "key": "filtered-test", "variations": [0, 1, 2], "hashAttribute": "id",
                 "filters": [{"seed": "layer-1", "ranges": [[0, 0.3], [0.6, 0.8]], "hashVersion": 2}],
                 "ranges": [[0, 0.2], [0.2, 0.5], [0.5, 0.9]], "meta": [{"key": "a"}, {"key": "b"}, {"key": "c"}]},
            ]},
            "rule-filtered": {"defaultValue": "off", "rules": [
                {"id": "fr_layer", "force": "on", "filters": [{"seed": "layer-2", "ranges": [[0.5, 1]], "attribute": "deviceId"}]},
            ]},
            "parent": {"defaultValue": False, "rules": [
                {"id": "fr_parent", "force": True, "coverage": 0.5, "hashAttribute": "id"},
            ]},
            "child": {"defaultValue": "child-default", "rules": [
                {"id": "fr_child", "parentConditions": [{"id": "parent", "condition": {"value": True}}], "force": "child-on"},
            ]},
            "gated-child": {"defaultValue": "gated-default", "rules": [
                {"id": "fr_gated", "parentConditions": [{"id": "parent", "condition": {"value": True}, "gate": True}],
                 "force": "gated-on"},
            ]},
            "orphan": {"defaultValue": "orphan-default", "rules": [
                {"id": "fr_orphan", "parentConditions": [{"id": "missing", "condition": {"value": {"$exists": False}}}],
                 "force": "orphan-on"},
            ]},
            "loop-a": {"defaultValue": "a", "rules": [
                {"id": "fr_a", "parentConditions": [{"id": "loop-b", "condition": {"value": "b"}}], "force": "a-on"},
            ]},
            "loop-b": {"defaultValue": "b", "rules": [
                {"id": "fr_b", "parentConditions": [{"id": "loop-a", "condition": {"value": "a"}}], "force": "b-on"},
            ]},
        },
    }
    structures = []
    for user in words[:600]:
        attrs = {"id": user}
        if rng.random() < 0.6:
            attrs["deviceId"] = rng.choice(["dev-a", "dev-b", "dev-c", "", 42])
        gb = GrowthBook(attributes=attrs, features=structure_payload["features"],
                        saved_groups=structure_payload["savedGroups"])
        structures.append({"id": user, "attributes": attrs, "results": feature_results(gb, structure_payload["features"])})
    for special in ["u-beta-1", "qa-user", "über"]:
        gb = GrowthBook(attributes={"id": special}, features=structure_payload["features"],
                        saved_groups=structure_payload["savedGroups"])
        structures.append({"id": special, "attributes": {"id": special}, "results": feature_results(gb, ["beta-banner"])})
    # A visitor who logs in, with sticky bucketing and a fallback attribute: the experiment hashes the anonymous
    # id while there is no user id, keeps the variation through a weight change, reads the anonymous id's document
    # once logged in (and copies it to the user id's), keeps it on a second device, and starts afresh as a new
    # visitor; one step disables sticky bucketing (no fallback then), and one runs without a sticky service.
    journey_steps = [
        {"attributes": {"anonymousId": "A"}, "weights": [0.5, 0.5]},
        {"attributes": {"anonymousId": "A"}, "weights": [0.2, 0.8]},
        {"attributes": {"id": "U", "anonymousId": "A"}, "weights": [0.2, 0.8]},
        {"attributes": {"id": "U", "anonymousId": "B"}, "weights": [0.2, 0.8]},
        {"attributes": {"anonymousId": "C"}, "weights": [0.2, 0.8]},
        {"attributes": {"anonymousId": "C"}, "weights": [0.2, 0.8], "disableStickyBucketing": True},
        {"attributes": {"anonymousId": "C"}, "weights": [0.2, 0.8], "withoutService": True},
    ]
    journeys = []
    journey_users = [(w, f"anon-{w}", 12345 + index) for index, w in enumerate(words[:400])]
    journey_users += [("", "anon-empty-id", "v-1"), ("ü-é-😀", "", "v-2"), ("x" * 1000, 777, 0)]
    for user, anonymous, other in journey_users:
        service = InMemoryStickyBucketService()
        values = {"U": user, "A": anonymous, "B": f"{anonymous}-second-device", "C": other}
        results = []
        for step in journey_steps:
            given = {name: values[value] for name, value in step["attributes"].items()}
            rule = {"key": "journey", "variations": ["control", "treatment"], "meta": [{"key": "c"}, {"key": "t"}],
                    "hashAttribute": "id", "fallbackAttribute": "anonymousId", "hashVersion": 2,
                    "weights": step["weights"]}
            if step.get("disableStickyBucketing"):
                rule["disableStickyBucketing"] = True
            extra = {} if step.get("withoutService") else {"sticky_bucket_service": service}
            gb = GrowthBook(attributes=given, features={"journey": {"defaultValue": "off", "rules": [rule]}}, **extra)
            result = gb.eval_feature("journey")
            experiment = result.experimentResult
            results.append({"attributes": given, "value": result.value, "source": result.source,
                            "hashAttribute": experiment.hashAttribute if experiment else None,
                            "hashValue": experiment.hashValue if experiment else None,
                            "bucket": experiment.bucket if experiment else None,
                            "stickyBucketUsed": experiment.stickyBucketUsed if experiment else None})
        journeys.append({"results": results, "documents": {key: doc["assignments"] for key, doc in service.docs.items()}})
    journey_rule_steps = [{key: value for key, value in step.items() if key != "attributes"} for step in journey_steps]

    return {"sdk": GROWTHBOOK, "fnv": fnv, "hashes": hashes, "ranges": ranges, "namespaces": namespaces,
            "conditions": conditions, "experiments": experiments, "runs": runs, "stickySteps": steps,
            "sticky": sticky, "payload": payload, "features": features, "rolloutPayload": rollout_payload,
            "rollouts": rollouts, "operatorConditions": operator_cases, "structurePayload": structure_payload,
            "structures": structures, "journeySteps": journey_rule_steps, "journeys": journeys}


# MARK: - LaunchDarkly

def launchdarkly_flag_data():
    """Flags and segments covering what the SDK's evaluator reads: off and deleted flags, prerequisites
    (met, failed, circular, missing), targets and context targets, every clause operator, negation,
    segments with lists and weighted rules, rollouts by salt and by seed, bucketBy on strings,
    integers, numbers with a fraction and booleans, experiments, other context kinds and malformed
    outcomes (a variation out of range, a rollout without variations, weights short of 100,000)."""
    def rollout(*weights, **extra):
        return {"rollout": {"variations": [{"variation": i, "weight": w} for i, w in enumerate(weights)], **extra}}

    def flag(key, variations=3, **fields):
        return {"key": key, "version": 3, "on": True, "salt": key + "-salt", "variations": list(range(variations)),
                "fallthrough": {"variation": 0}, **fields}

    def clause(attribute, op, values, negate=False, **extra):
        return {"attribute": attribute, "op": op, "values": values, "negate": negate, **extra}

    def rule(id_, clauses, outcome):
        return {"id": id_, "clauses": clauses, **outcome}

    flags = [
        flag("half", 2, fallthrough=rollout(50000, 50000)),
        flag("thirds", 3, fallthrough=rollout(33333, 33333, 33334)),
        flag("tiny", 2, fallthrough=rollout(1, 99999)),
        flag("seeded", 2, fallthrough=rollout(50000, 50000, seed=61)),
        flag("short-weights", 3, fallthrough=rollout(20000, 20000, 20000)),
        flag("no-salt", 2, salt=None, fallthrough=rollout(50000, 50000)),
        flag("experiment", 2, fallthrough=rollout(50000, 50000, kind="experiment", bucketBy="team", seed=7)),
        flag("by-team", 2, fallthrough=rollout(50000, 50000, bucketBy="team")),
        flag("by-build", 2, fallthrough=rollout(50000, 50000, bucketBy="build")),
        flag("by-score", 2, fallthrough=rollout(50000, 50000, bucketBy="score")),
        flag("by-beta", 2, fallthrough=rollout(50000, 50000, bucketBy="beta")),
        flag("by-nested", 2, fallthrough=rollout(50000, 50000, bucketBy="/device/os", contextKind="user")),
        flag("org-kind", 2, fallthrough=rollout(10000, 90000, contextKind="org")),
        flag("off-with", 2, on=False, offVariation=1),
        flag("off-without", 2, on=False),
        flag("off-out-of-range", 2, on=False, offVariation=5),
        {"key": "deleted", "version": 9, "deleted": True},
        flag("bad-index", 2, fallthrough={"variation": 4}),
        flag("empty-rollout", 2, fallthrough={"rollout": {"variations": []}}),
        flag("no-fallthrough", 2, fallthrough=None),
        flag("targets", 3, targets=[{"variation": 1, "values": ["a", "user-0", "über", "e\u0301"]}, {"variation": 2, "values": [""]}],
             fallthrough=rollout(50000, 50000)),
        flag("context-targets", 3,
             targets=[{"variation": 2, "values": ["qa-user"]}],
             contextTargets=[{"contextKind": "user", "variation": 2, "values": []},
                             {"contextKind": "org", "variation": 1, "values": ["a"]}]),
        flag("prereq-met", 2, prerequisites=[{"key": "half", "variation": 0}], offVariation=1, fallthrough={"variation": 0}),
        flag("prereq-off", 2, prerequisites=[{"key": "off-with", "variation": 1}], offVariation=1),
        flag("prereq-missing", 2, prerequisites=[{"key": "nowhere", "variation": 0}], offVariation=1),
        flag("prereq-deleted", 2, prerequisites=[{"key": "deleted", "variation": 0}]),
        flag("cycle-a", 2, prerequisites=[{"key": "cycle-b", "variation": 0}]),
        flag("cycle-b", 2, prerequisites=[{"key": "cycle-a", "variation": 0}]),
        flag("prereq-chain", 2, prerequisites=[{"key": "prereq-met", "variation": 0}, {"key": "thirds", "variation": 2}],
             offVariation=1),
        flag("rules", 6, rules=[
            rule("platform", [clause("platform", "in", ["iOS"])], {"variation": 1}),
            rule("version", [clause("app_version", "semVerGreaterThan", ["2.0.0"]),
                             clause("app_version", "semVerLessThan", ["3"])], {"variation": 2}),
            rule("sessions", [clause("sessions", "greaterThanOrEqual", [5])], rollout(30000, 70000, bucketBy="team")),
            rule("email", [clause("email", "endsWith", ["@example.com"]), clause("email", "startsWith", ["qa"], negate=True)],
                 {"variation": 3}),
            rule("regex", [clause("email", "matches", ["^[a-z]+[0-9]{2}@"])], {"variation": 4}),
            rule("contains", [clause("name", "contains", ["Ann"])], {"variation": 5}),
            rule("canonical", [clause("name", "in", ["Jos\u00e9"])], {"variation": 5}),
        ], fallthrough=rollout(25000, 25000, 25000, 25000)),
        flag("numbers", 4, rules=[
            rule("lt", [clause("sessions", "lessThan", [1])], {"variation": 1}),
            rule("le", [clause("sessions", "lessThanOrEqual", [2.5])], {"variation": 2}),
            rule("gt", [clause("sessions", "greaterThan", [5])], {"variation": 3}),
        ]),
        flag("equality", 5, rules=[
            rule("bool", [clause("beta", "in", [True])], {"variation": 1}),
            rule("int-float", [clause("build", "in", [7.0])], {"variation": 2}),
            rule("string-number", [clause("team", "in", [7])], {"variation": 3}),
            rule("array", [clause("groups", "in", ["staff"])], {"variation": 4}),
        ]),
        flag("semver-equal", 2, rules=[rule("eq", [clause("app_version", "semVerEqual", ["2.1"])], {"variation": 1})]),
        flag("times", 3, rules=[
            rule("before", [clause("signup", "before", ["2024-01-01T00:00:00Z"])], {"variation": 1}),
            rule("after", [clause("signup", "after", [1735689600000])], {"variation": 2}),
        ]),
        flag("kind-clause", 2, rules=[rule("kind", [clause("kind", "in", ["user"])], {"variation": 1})]),
        flag("org-clause", 2, rules=[rule("org", [clause("name", "in", ["x"], negate=True, contextKind="org")], {"variation": 1})]),
        flag("negated-missing", 2, rules=[rule("neg", [clause("missing", "in", ["x"], negate=True)], {"variation": 1})]),
        flag("unknown-op", 2, rules=[rule("unknown", [clause("platform", "isOneOf", ["iOS"], negate=True)], {"variation": 1})]),
        flag("bad-reference", 2, rules=[rule("bad", [clause("/a//b", "in", ["x"], contextKind="user")], {"variation": 1})]),
        flag("segments", 4, rules=[
            rule("listed", [clause("", "segmentMatch", ["listed"])], {"variation": 1}),
            rule("weighted", [clause("", "segmentMatch", ["weighted", "missing-segment"])], {"variation": 2}),
            rule("not-nested", [clause("", "segmentMatch", ["nested"], negate=True)], {"variation": 3}),
        ]),
        flag("segment-cycle", 2, rules=[rule("cycle", [clause("", "segmentMatch", ["loop-a"])], {"variation": 1})]),
        flag("big-segment", 2, rules=[rule("big", [clause("", "segmentMatch", ["big", "big-no-generation"])], {"variation": 1})]),
    ]
    segments = [
        {"key": "listed", "version": 1, "included": ["a", "user-0"], "excluded": ["qa-user"], "salt": "s1",
         "rules": [{"clauses": [clause("platform", "in", ["Android"])]}]},
        {"key": "weighted", "version": 1, "excluded": ["a"], "salt": "s2",
         "rules": [{"clauses": [], "weight": 40000}, {"clauses": [], "weight": 30000, "bucketBy": "team"}]},
        {"key": "nested", "version": 1, "rules": [{"clauses": [clause("", "segmentMatch", ["listed"])]}]},
        {"key": "loop-a", "version": 1, "rules": [{"clauses": [clause("", "segmentMatch", ["loop-b"])]}]},
        {"key": "loop-b", "version": 1, "rules": [{"clauses": [clause("", "segmentMatch", ["loop-a"])]}]},
        {"key": "big", "version": 1, "unbounded": True, "generation": 2, "included": ["a"],
         "rules": [{"clauses": [clause("platform", "in", ["iOS"])]}]},
        {"key": "big-no-generation", "version": 1, "unbounded": True, "rules": [{"clauses": []}]},
    ]
    for f in flags:
        if f.get("salt", "") is None:
            del f["salt"]
        if "fallthrough" in f and f["fallthrough"] is None:
            del f["fallthrough"]
    return {"flags": {f["key"]: f for f in flags}, "segments": {s["key"]: s for s in segments}}


def launchdarkly_attribute_sets():
    return [
        {},
        {"platform": "iOS", "app_version": "2.1.0", "sessions": 6, "team": "blue", "build": 7, "score": 7.5,
         "beta": True, "email": "ann42@example.com", "name": "Ann", "groups": ["staff", "beta"],
         "device": {"os": "iOS 17"}, "signup": "2023-06-01T12:00:00.000Z"},
        {"platform": "Android", "app_version": "3.0.0-beta.1", "sessions": 2.5, "team": 7, "build": 7.0,
         "beta": False, "email": "qa1@example.com", "name": "Jose\u0301", "groups": "staff",
         "device": {"os": 12}, "signup": 1767225600000},
        {"app_version": "2", "sessions": 0, "team": "", "email": "bob@example.org", "signup": "2025-01-01T01:00:00+02:00",
         "name": 5, "score": None},
    ]


def launchdarkly_fixtures(rng):
    import tempfile
    from ldclient import Context
    from ldclient.client import LDClient
    from ldclient.config import Config
    from ldclient.impl.evaluator_common import _bucket_context
    from ldclient.integrations import Files

    data = launchdarkly_flag_data()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(data, handle)
    client = LDClient(Config("sdk-key", update_processor_class=Files.new_data_source(paths=[handle.name]),
                             send_events=False, diagnostic_opt_out=True))
    assert client.is_initialized(), "the SDK did not load the flag data"
    candidates = ids(rng, 3000) + ["x" * 1000, "42", "-7", "0", "🧪🧪", "Ĳssel", "\u00e9", "e\u0301"]
    # Ids nearest every boundary of 'half' and 'thirds' (the SDK's own buckets), below and above.
    edges = []
    for key, bounds in [("half", [0.5]), ("thirds", [0.33333, 0.66666])]:
        flag_salt = data["flags"][key]["salt"]
        scored = [(_bucket_context(None, Context.create(i), None, key, flag_salt, None), i) for i in candidates if i]
        for bound in bounds:
            below = max((b, i) for b, i in scored if b < bound)
            above = min((b, i) for b, i in scored if b >= bound)
            edges += [below[1], above[1]]
    chosen = candidates[:60] + candidates[-8:] + edges
    cases = []
    attribute_sets = launchdarkly_attribute_sets()
    for index, attrs in enumerate(attribute_sets):
        for id_ in chosen:
            builder = Context.builder(id_)
            for name, value in attrs.items():
                builder.set(name, value)
            context = builder.build()
            for key in data["flags"]:
                detail = client.variation_detail(key, context, None)
                cases.append({"attributes": index, "id": id_, "flag": key, "variation": detail.variation_index})
    client.close()
    os.unlink(handle.name)
    (OUT / "launchdarkly-flags.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return {"sdk": LAUNCHDARKLY, "attributeSets": attribute_sets, "edgeIds": edges, "cases": cases}


# MARK: - Unleash

def unleash_features():
    """A client features response covering the strategies, constraint operators, segments, variants
    (feature and strategy, with stickiness and overrides) and dependencies the engine evaluates."""
    def strategy(name, parameters=None, constraints=None, **extra):
        return {"name": name, "parameters": parameters or {}, "constraints": constraints or [], **extra}

    def flexible(rollout, stickiness="default", group=None, **extra):
        parameters = {"rollout": str(rollout), "stickiness": stickiness}
        if group is not None:
            parameters["groupId"] = group
        return strategy("flexibleRollout", parameters, **extra)

    def constraint(field, operator, values=None, value=None, inverted=False, case=False):
        result = {"contextName": field, "operator": operator, "inverted": inverted, "caseInsensitive": case}
        if values is not None:
            result["values"] = values
        if value is not None:
            result["value"] = value
        return result

    def feature(name, strategies, enabled=True, variants=None, **extra):
        return {"name": name, "type": "release", "enabled": enabled, "stale": False, "impressionData": False,
                "strategies": strategies, "variants": variants or [], **extra}

    def variant(name, weight, stickiness="default", overrides=None):
        result = {"name": name, "weight": weight, "weightType": "variable", "stickiness": stickiness,
                  "payload": {"type": "string", "value": name}}
        if overrides:
            result["overrides"] = overrides
        return result

    features = [
        feature("plain-on", [strategy("default")]),
        feature("plain-off", [strategy("default")], enabled=False),
        feature("no-strategies", []),
        feature("rollout-50", [flexible(50, group="rollout-50")]),
        feature("rollout-0", [flexible(0)]),
        feature("rollout-100", [flexible(100)]),
        feature("rollout-33-no-group", [flexible(33)]),
        feature("rollout-user-id", [flexible(40, stickiness="userId", group="g1")]),
        feature("rollout-session", [flexible(60, stickiness="sessionId", group="g2")]),
        feature("rollout-custom", [flexible(50, stickiness="tier", group="g3")]),
        feature("rollout-random-full", [flexible(100, stickiness="random")]),
        feature("rollout-bad-number", [flexible("abc")]),
        feature("rollout-over", [flexible(150)]),
        feature("rollout-fraction", [flexible("33.5")]),
        feature("user-with-id", [strategy("userWithId", {"userIds": "a, user-0,qa-user , über"})]),
        feature("gradual-user", [strategy("gradualRolloutUserId", {"percentage": "30", "groupId": "gu"})]),
        feature("gradual-session", [strategy("gradualRolloutSessionId", {"percentage": "70", "groupId": "gs"})]),
        feature("gradual-random-zero", [strategy("gradualRolloutRandom", {"percentage": "0"})]),
        feature("remote-address", [strategy("remoteAddress", {"IPs": "10.0.0.0/8, 192.168.1.7,bad-ip"})]),
        feature("custom-strategy", [strategy("myOwnStrategy", {"x": "y"})]),
        feature("two-strategies", [flexible(10, group="t1"), strategy("userWithId", {"userIds": "user-1"})]),
        feature("constraints-in", [strategy("default", constraints=[constraint("plan", "IN", ["pro", "team"])])]),
        feature("constraints-not-in", [strategy("default", constraints=[constraint("plan", "NOT_IN", ["free"])])]),
        feature("constraints-empty-in", [strategy("default", constraints=[constraint("plan", "NOT_IN", [])])]),
        feature("constraints-strings", [strategy("default", constraints=[
            constraint("email", "STR_ENDS_WITH", ["@EXAMPLE.com"], case=True),
            constraint("email", "STR_STARTS_WITH", ["qa"], inverted=True),
            constraint("email", "STR_CONTAINS", ["@"])])]),
        feature("constraints-numbers", [strategy("default", constraints=[
            constraint("age", "NUM_GTE", value="18"), constraint("age", "NUM_LT", value="65.5")])]),
        feature("constraints-num-eq", [strategy("default", constraints=[constraint("age", "NUM_EQ", value="30")])]),
        feature("constraints-dates", [strategy("default", constraints=[
            constraint("currentTime", "DATE_AFTER", value="2025-01-01T00:00:00.000Z"),
            constraint("signup", "DATE_BEFORE", value="2026-01-01T00:00:00Z")])]),
        feature("constraints-semver", [strategy("default", constraints=[
            constraint("version", "SEMVER_GT", value="2.0.0"), constraint("version", "SEMVER_LT", value="3.0.0-rc.1")])]),
        feature("constraints-semver-eq", [strategy("default", constraints=[constraint("version", "SEMVER_EQ", value="2.3.4")])]),
        feature("constraints-bad-semver", [strategy("default", constraints=[constraint("version", "SEMVER_GT", value="v2.0.0")])]),
        feature("constraints-inverted-in", [strategy("default", constraints=[constraint("userId", "IN", ["a"], inverted=True)])]),
        feature("constraints-session", [strategy("default", constraints=[constraint("sessionId", "IN", ["s-1"])])]),
        feature("constraints-unknown-op", [strategy("default", constraints=[constraint("plan", "REGEX", ["p.*"])]),
                                           strategy("userWithId", {"userIds": "a"})]),
        feature("segmented", [strategy("default", segments=[1])]),
        feature("segment-missing", [strategy("default", segments=[99])]),
        feature("segment-and-constraint", [flexible(80, group="sc", segments=[2],
                                                   constraints=[constraint("beta", "IN", ["True", "true"])])]),
        feature("variants", [flexible(100, group="variants")],
                variants=[variant("red", 500), variant("blue", 300), variant("green", 200)]),
        feature("variants-sticky-tier", [strategy("default")],
                variants=[variant("a", 50, "tier"), variant("b", 50, "tier")]),
        feature("variants-override", [strategy("default")],
                variants=[variant("x", 1, overrides=[{"contextName": "userId", "values": ["a", "qa-user"]}]),
                          variant("y", 999, overrides=[{"contextName": "plan", "values": ["team"]}])]),
        feature("variants-on-disabled", [flexible(0)], variants=[variant("never", 1000)]),
        feature("strategy-variants", [
            flexible(50, group="sv-group", constraints=[constraint("plan", "IN", ["pro"])],
                     variants=[variant("pro-a", 1), variant("pro-b", 3)]),
            strategy("default", variants=[])],
            variants=[variant("feature-level", 1000)]),
        feature("strategy-variants-custom", [
            flexible(100, stickiness="tier", group="svc", variants=[variant("t1", 50, "tier"), variant("t2", 50, "tier")])]),
        feature("parent", [flexible(50, group="parent")], variants=[variant("p1", 500), variant("p2", 500)]),
        feature("child-enabled", [strategy("default")], dependencies=[{"feature": "parent"}]),
        feature("child-disabled-parent", [strategy("default")], dependencies=[{"feature": "parent", "enabled": False}]),
        feature("child-variant", [strategy("default")], dependencies=[{"feature": "parent", "variants": ["p2"]}]),
        feature("child-missing", [strategy("default")], dependencies=[{"feature": "nowhere"}]),
        feature("grandchild", [strategy("default")], dependencies=[{"feature": "child-enabled"}]),
        feature("parent-no-group", [flexible(50)]),
        feature("child-of-no-group", [strategy("default")], dependencies=[{"feature": "parent-no-group"}]),
        feature("Ünïcødé-flag 🚀", [flexible(50)]),
    ]
    segments = [
        {"id": 1, "name": "pros", "constraints": [constraint("plan", "IN", ["pro"])]},
        {"id": 2, "name": "adults", "constraints": [constraint("age", "NUM_GT", value="20")]},
    ]
    return {"version": 2, "features": features, "segments": segments, "query": {}, "meta": {"revisionId": 7}}


def unleash_attribute_sets():
    return [
        {"currentTime": "2026-06-01T00:00:00.000Z", "tier": "bronze"},
        {"sessionId": "s-1", "remoteAddress": "10.1.2.3", "currentTime": "2025-06-01T12:00:00Z", "plan": "pro",
         "email": "ann@example.COM", "age": 30, "version": "2.3.4", "beta": True, "tier": "gold",
         "signup": "2025-05-05T05:05:05.000Z"},
        {"sessionId": "s-2", "remoteAddress": "192.168.1.7", "plan": "team", "email": "qa@example.com", "age": 65.5,
         "version": "3.0.0-beta.2", "properties": {"tier": "silver", "plan": "free"}, "currentTime": "2026-01-01T00:00:00Z"},
        {"remoteAddress": "not an ip", "age": "eighteen", "version": "2.3", "beta": "true", "tier": "",
         "currentTime": "2025-01-01T00:00:00.000Z", "signup": "garbage"},
    ]


def unleash_fixtures(rng):
    import tempfile
    from UnleashClient import UnleashClient
    from UnleashClient.cache import FileCache

    features = unleash_features()
    directory = tempfile.mkdtemp()
    cache = FileCache("bench", directory=directory)
    cache.bootstrap_from_dict(features)
    client = UnleashClient(url="http://127.0.0.1:9", app_name="bench", disable_metrics=True,
                           disable_registration=True, cache=cache)
    client.initialize_client(fetch_toggles=False)
    chosen = ids(rng, 60) + ["x" * 1000, "42", "🧪🧪", "e\u0301", "\u00e9"]
    attribute_sets = unleash_attribute_sets()
    cases = []
    for index, attrs in enumerate(attribute_sets):
        for id_ in chosen:
            context = {"userId": id_, **attrs}
            for item in features["features"]:
                result = client.get_variant(item["name"], context)
                if not result["feature_enabled"]:
                    variation = "disabled"
                elif result["enabled"]:
                    variation = result["name"]
                else:
                    variation = "enabled"
                assert client.is_enabled(item["name"], context) == result["feature_enabled"]
                cases.append({"attributes": index, "id": id_, "feature": item["name"], "variation": variation})
    client.destroy()
    (OUT / "unleash-features.json").write_text(json.dumps(features, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return {"sdk": UNLEASH, "attributeSets": attribute_sets, "cases": cases}


# MARK: - Eppo

def eppo_configuration():
    """A universal flag configuration covering allocations (rules, start and end, splits of one and of
    two shards, an empty split), every condition operator, the subject's id as an attribute and the
    variation types."""
    def variations(*pairs):
        return {key: {"key": key, "value": value} for key, value in pairs}

    def split(key, *shards):
        return {"variationKey": key, "shards": [{"salt": salt, "ranges": [{"start": a, "end": b} for a, b in ranges]}
                                               for salt, ranges in shards]}

    def allocation(key, splits, rules=None, **extra):
        return {"key": key, "rules": rules or [], "splits": splits, "doLog": True, **extra}

    def condition(attribute, operator, value):
        return {"attribute": attribute, "operator": operator, "value": value}

    def flag(key, allocations, kind="STRING", values=(("a", "A"), ("b", "B"), ("c", "C")), enabled=True, shards=10000):
        return {"key": key, "enabled": enabled, "variationType": kind, "variations": variations(*values),
                "allocations": allocations, "totalShards": shards}

    halves = [split("a", ("s1", [(0, 5000)])), split("b", ("s1", [(5000, 10000)]))]
    flags = [
        flag("halves", [allocation("all", halves)]),
        flag("thirds", [allocation("all", [split("a", ("t", [(0, 3333)])), split("b", ("t", [(3333, 6666)])),
                                            split("c", ("t", [(6666, 10000)]))])]),
        flag("two-shards", [allocation("layered", [split("a", ("traffic", [(0, 5000)]), ("variant", [(0, 5000)])),
                                                    split("b", ("traffic", [(0, 5000)]), ("variant", [(5000, 10000)]))])]),
        flag("gaps", [allocation("gappy", [split("a", ("g", [(0, 1000), (9000, 10000)]))])]),
        flag("everyone", [allocation("empty-split", [split("c")])]),
        flag("small-total", [allocation("all", [split("a", ("st", [(0, 37)])), split("b", ("st", [(37, 100)]))])], shards=100),
        flag("disabled", [allocation("all", halves)], enabled=False),
        flag("not-started", [allocation("future", halves, startAt="2999-01-01T00:00:00.000Z"), allocation("fallback", [split("c")])]),
        flag("ended", [allocation("past", halves, endAt="2001-01-01T00:00:00Z")]),
        flag("running", [allocation("window", halves, startAt="2001-01-01T00:00:00Z", endAt="2999-01-01T00:00:00.000Z")]),
        flag("targeted", [
            allocation("us-adults", [split("a")], rules=[{"conditions": [condition("country", "ONE_OF", ["US", "CA"]),
                                                                         condition("age", "GTE", 18)]}]),
            allocation("rest", halves)]),
        flag("operators", [
            allocation("regex", [split("a")], rules=[{"conditions": [condition("email", "MATCHES", "@example\\.com$")]}]),
            allocation("not-regex", [split("b")], rules=[{"conditions": [condition("email", "NOT_MATCHES", "^x")]}]),
            allocation("null", [split("c")], rules=[{"conditions": [condition("country", "IS_NULL", True)]}])]),
        flag("negations", [
            allocation("not-one-of", [split("a")], rules=[{"conditions": [condition("country", "NOT_ONE_OF", ["US"])]}]),
            allocation("not-null", [split("b")], rules=[{"conditions": [condition("premium", "IS_NULL", False)]}])]),
        flag("numbers", [
            allocation("score", [split("a")], rules=[{"conditions": [condition("score", "ONE_OF", ["42", "1000000000000000000000"])]}]),
            allocation("bool", [split("b")], rules=[{"conditions": [condition("premium", "ONE_OF", ["true"])]}]),
            allocation("string-number", [split("c")], rules=[{"conditions": [condition("age", "LT", "18")]}])]),
        flag("versions", [
            allocation("new", [split("a")], rules=[{"conditions": [condition("version", "GTE", "1.2.0")]}]),
            allocation("beta", [split("b")], rules=[{"conditions": [condition("version", "LT", "2.0.0")]}])]),
        flag("any-rule", [allocation("either", [split("a")], rules=[
            {"conditions": [condition("country", "ONE_OF", ["FR"])]}, {"conditions": [condition("age", "GT", 60)]}])]),
        flag("by-id", [allocation("listed", [split("a")], rules=[{"conditions": [condition("id", "ONE_OF", ["a", "user-0", "override-id"])]}]),
                       allocation("rest", halves)]),
        flag("missing-variation", [allocation("all", [split("zzz")])]),
        flag("integer", [allocation("all", halves)], kind="INTEGER", values=(("a", 1), ("b", 2))),
        flag("integer-mismatch", [allocation("all", halves)], kind="INTEGER", values=(("a", 1.5), ("b", 2))),
        flag("numeric", [allocation("all", halves)], kind="NUMERIC", values=(("a", 0.5), ("b", 2))),
        flag("boolean", [allocation("all", halves)], kind="BOOLEAN", values=(("a", True), ("b", False))),
        flag("json", [allocation("all", halves)], kind="JSON", values=(("a", "{\"x\": 1}"), ("b", "[]"))),
        flag("no-allocation", []),
    ]
    return {"createdAt": "2024-04-17T19:40:53.716Z", "format": "SERVER", "environment": {"name": "Test"},
            "flags": {f["key"]: f for f in flags}}


def eppo_attribute_sets():
    return [
        {},
        {"country": "US", "age": 30, "version": "1.2.3", "email": "ann@example.com", "premium": True, "score": 42.0},
        {"country": "FR", "age": "17", "version": "2.0.0-beta.1", "email": "xavier@test.org", "premium": False, "score": 1e21},
        {"id": "override-id", "country": None, "age": 65.5, "version": "1.10.0+build.7", "email": 5, "score": "42"},
    ]


def eppo_fixtures(rng):
    import eppo_client
    from eppo_client import AssignmentLogger, ClientConfig, Configuration

    configuration = eppo_configuration()
    client = eppo_client.init(ClientConfig(
        api_key="bench", assignment_logger=AssignmentLogger(), poll_interval_seconds=None,
        initial_configuration=Configuration(flags_configuration=json.dumps(configuration).encode())))
    getters = {"STRING": (client.get_string_assignment_details, "default"),
               "INTEGER": (client.get_integer_assignment_details, -1),
               "NUMERIC": (client.get_numeric_assignment_details, -1.0),
               "BOOLEAN": (client.get_boolean_assignment_details, False),
               "JSON": (client.get_json_assignment_details, {})}
    chosen = ids(rng, 80) + ["x" * 1000, "42", "🧪🧪", "e\u0301", "\u00e9"]
    # Subjects beside the 'halves' boundary at 5000 (the SDK's own shard, from its details), below and above.
    shards = []
    for subject in ids(rng, 4000):
        details = client.get_string_assignment_details("halves", subject, {}, "default").evaluation_details
        shard = details["allocations"][0]["evaluatedSplits"][0]["shards"][0]["shardValue"]
        shards.append((shard, subject))
    edges = [max(p for p in shards if p[0] < 5000)[1], min(p for p in shards if p[0] >= 5000)[1],
             min(shards)[1], max(shards)[1]]
    chosen += edges
    cases = []
    attribute_sets = eppo_attribute_sets()
    for index, attrs in enumerate(attribute_sets):
        for subject in chosen:
            for key, item in configuration["flags"].items():
                getter, default = getters[item["variationType"]]
                details = getter(key, subject, attrs, default).evaluation_details
                # The details name a split's variation even where the SDK then returns the default.
                served = details["variationKey"] if details["flagEvaluationCode"] == "MATCH" else None
                cases.append({"attributes": index, "id": subject, "flag": key, "variation": served})
    (OUT / "eppo-flags.json").write_text(json.dumps(configuration, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return {"sdk": EPPO, "attributeSets": attribute_sets, "edgeIds": edges, "cases": cases}


# MARK: - Statsig

def statsig_specs():
    """A download_config_specs response (v1) covering pass percentages, every condition type the bench
    reads, the operators, nested and multiple gates, custom id types, an experiment in a layer with
    its allocation, targeting gate, id overrides and groups, and specs the SDK drops or does not list."""
    def condition(type_, operator=None, target=None, field=None, salt=None, id_type="userID"):
        return {"type": type_, "operator": operator, "targetValue": target, "field": field,
                "additionalValues": {"salt": salt} if salt is not None else {}, "isDeviceBased": False, "idType": id_type}

    def rule(id_, conditions, percent=100, group=None, experiment_group=None, id_type="userID", salt=None, **extra):
        result = {"name": id_, "id": id_, "salt": salt if salt is not None else id_, "passPercentage": percent,
                  "conditions": conditions, "returnValue": {"group": group} if group else True, "idType": id_type}
        if group is not None:
            result["groupName"] = group
        if experiment_group is not None:
            result["isExperimentGroup"] = experiment_group
        result.update(extra)
        return result

    def gate(name, rules, enabled=True, entity="feature_gate", id_type="userID"):
        return {"name": name, "type": "feature_gate", "salt": name + "-salt", "enabled": enabled, "defaultValue": False,
                "rules": rules, "isDeviceBased": False, "idType": id_type, "entity": entity}

    public = condition("public")
    gates = [
        gate("everyone", [rule("all", [public])]),
        gate("half", [rule("half", [public], percent=50)]),
        gate("tenth-fraction", [rule("tenth", [public], percent=10.5)]),
        gate("off", [rule("all", [public])], enabled=False),
        gate("company-rollout", [rule("company", [public], percent=50, id_type="companyID")], id_type="companyID"),
        gate("emails", [rule("staff", [condition("user_field", "str_ends_with_any", ["@STATSIG.com"], "email")]),
                        rule("example", [condition("user_field", "str_contains_any", ["example"], "email")], percent=40)]),
        gate("countries", [rule("eu", [condition("user_field", "any", ["FR", "de", 5], "country")])]),
        gate("countries-exact", [rule("eu", [condition("user_field", "any_case_sensitive", ["FR", "fr"], "country")])]),
        gate("not-us", [rule("not-us", [condition("user_field", "none", ["US"], "country")])]),
        gate("versions", [rule("new", [condition("user_field", "version_gte", "2.3", "appVersion")]),
                          rule("beta", [condition("user_field", "version_lt", "10.1", "appVersion")], percent=50)]),
        gate("ages", [rule("adult", [condition("user_field", "gte", 18, "age")])]),
        gate("plan-eq", [rule("pro", [condition("user_field", "eq", "pro", "plan")]),
                         rule("beta-true", [condition("user_field", "eq", 1, "beta")])]),
        gate("plan-neq", [rule("not-pro", [condition("user_field", "neq", "pro", "plan")])]),
        gate("regex", [rule("re", [condition("user_field", "str_matches", "^[a-z]+@", "email")])]),
        gate("tags", [rule("any-tag", [condition("user_field", "array_contains_any", ["beta", "5"], "tags")]),
                      rule("all-tags", [condition("user_field", "array_contains_all", ["x"], "tags")])]),
        gate("dates", [rule("old", [condition("user_field", "before", 1800000000, "signup")]),
                       rule("now", [condition("current_time", "after", 1600000000000)], percent=25)]),
        gate("private", [rule("secret", [condition("user_field", "any", ["x"], "secret")])]),
        gate("environment", [rule("prod", [condition("environment_field", "any", ["production"], "tier")])]),
        gate("unit", [rule("listed", [condition("unit_id", "any", ["a", "user-0", "c-1", "42"], id_type="companyID")]),
                      rule("user", [condition("unit_id", "any", ["qa-user"])])]),
        gate("buckets", [rule("low", [condition("user_bucket", "lt", 300, salt="bucket-salt")]),
                         rule("listed", [condition("user_bucket", "any", [500, 501, 502, "503"], salt="bucket-salt")])]),
        gate("nested", [rule("pass", [condition("pass_gate", target="half")]),
                        rule("fail", [condition("fail_gate", target="emails")], percent=30)]),
        gate("multi", [rule("multi", [condition("multi_pass_gate", target=["countries", "ages"])])]),
        gate("missing-gate", [rule("missing", [condition("fail_gate", target="nowhere")])]),
        gate("float-error", [rule("age-error", [condition("user_field", "gt", 1, "age")]), rule("all", [public])]),
        gate("all-conditions", [rule("both", [condition("user_field", "any", ["US"], "country"),
                                              condition("user_field", "gt", 10, "age")])]),
        gate("unsupported", [rule("odd", [condition("user_field", "fancy_op", ["x"], "email")])]),
        gate("segment:beta-users", [rule("seg", [condition("user_field", "any", ["beta"], "tags")])], entity="segment"),
        gate("holdout", [rule("held", [public], percent=20)], entity="holdout"),
    ]
    allocation = condition("user_bucket", "any", list(range(0, 700)), salt="layer-salt")
    groups = [
        rule("override", [condition("unit_id", "any", ["qa-user", "a"])], group="Test", experiment_group=False),
        rule("layerAssignment", [condition("user_bucket", "none", list(range(0, 700)), salt="layer-salt")], group=None),
        rule("targetingGate", [condition("fail_gate", target="countries")]),
        rule("holdout", [condition("pass_gate", target="holdout")]),
        rule("control", [condition("user_bucket", "lt", 500, salt="exp-salt")], group="Control", experiment_group=True),
        rule("test", [condition("user_bucket", "lt", 1000, salt="exp-salt")], group="Test", experiment_group=True),
    ]
    del allocation

    def config(name, rules, enabled=True, entity="experiment", salt=None):
        return {"name": name, "type": "dynamic_config", "salt": salt or name + "-salt", "enabled": enabled,
                "defaultValue": {}, "rules": rules, "isDeviceBased": False, "idType": "userID", "entity": entity,
                "isActive": enabled, "hasSharedParams": False}

    configs = [
        config("checkout", groups),
        config("split-percent", [rule("group-a", [public], percent=50, group="A", experiment_group=True),
                                 rule("group-b", [public], group="B", experiment_group=True)]),
        config("not-started", [rule("prestart", [public], group=None)], enabled=False),
        config("plain-config", [rule("all", [public])], entity="dynamic_config"),
        config("company-exp", [rule("company", [condition("user_bucket", "lt", 500, salt="c", id_type="companyID")],
                                    group="Company", experiment_group=True, id_type="companyID")]),
        config("non-group", [rule("named", [public], group="Named", experiment_group=False)]),
    ]
    return {"time": 1700000000000, "feature_gates": gates, "dynamic_configs": configs, "layer_configs": [],
            "layers": {}, "default_environment": "production", "has_updates": True}


def statsig_attribute_sets():
    return [
        {},
        {"email": "ann@statsig.com", "country": "US", "appVersion": "2.3.1",
         "custom": {"plan": "pro", "age": 30, "tags": ["beta", 5], "signup": 1700000000000},
         "customIDs": {"companyID": "c-1"}},
        {"email": "BOB@Example.com", "country": "fr", "locale": "fr_FR", "appVersion": "10.0-beta",
         "custom": {"plan": "free", "age": "17", "beta": True, "tags": "beta", "signup": "1500000000"},
         "privateAttributes": {"secret": "x"}, "customIDs": {"companyID": 42}},
        {"email": "", "custom": {"age": "abc", "email": "carl@example.com"}, "customIDs": {"stableID": "s-9"}},
    ]


def statsig_fixtures(rng):
    from statsig import StatsigOptions, StatsigUser, statsig

    specs = statsig_specs()
    statsig.initialize("secret-bench", StatsigOptions(bootstrap_values=json.dumps(specs), local_mode=True,
                                                       disable_diagnostics=True))
    chosen = ids(rng, 60) + ["x" * 1000, "42", "🧪🧪", "e\u0301", "\u00e9"]
    rows = [g["name"] for g in specs["feature_gates"] if g["entity"] == "feature_gate"]
    experiments = [c["name"] for c in specs["dynamic_configs"] if c["entity"] == "experiment"]
    groups = {c["name"]: {r["groupName"] for r in c["rules"] if r.get("isExperimentGroup") and r.get("groupName")}
              for c in specs["dynamic_configs"]}
    cases = []
    attribute_sets = statsig_attribute_sets()
    for index, attrs in enumerate(attribute_sets):
        for id_ in chosen:
            try:
                user = StatsigUser(user_id=id_, email=attrs.get("email"), ip=attrs.get("ip"),
                                   user_agent=attrs.get("userAgent"), country=attrs.get("country"),
                                   locale=attrs.get("locale"), app_version=attrs.get("appVersion"),
                                   custom=attrs.get("custom"), private_attributes=attrs.get("privateAttributes"),
                                   custom_ids=attrs.get("customIDs"))
            except Exception:
                user = None
            for name in rows:
                value = None if user is None else ("true" if statsig.check_gate(user, name) else "false")
                cases.append({"attributes": index, "id": id_, "experiment": name, "variation": value})
            for name in experiments:
                value = None
                if user is not None:
                    result = statsig.get_experiment(user, name)
                    if result.passed_rule and result.group_name in groups[name]:
                        value = result.group_name
                cases.append({"attributes": index, "id": id_, "experiment": name, "variation": value})
    statsig.shutdown()
    (OUT / "statsig-specs.json").write_text(json.dumps(specs, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return {"sdk": STATSIG, "attributeSets": attribute_sets, "cases": cases}


# MARK: - Impact of a change, per framework

def impact_changes():
    """For each framework a configuration before and after a change a team makes from the dashboard
    (weights, a rollout, a variation removed, a salt or seed, a flag off, a targeting rule), as files
    in the vendor's own format."""
    import copy

    optimizely_before = optimizely_datafile()
    optimizely_after = copy.deepcopy(optimizely_before)
    for experiment in optimizely_after["experiments"]:
        if experiment["key"] == "paywall_copy":
            experiment["trafficAllocation"] = [{"entityId": "2001", "endOfRange": 2000}, {"entityId": "2002", "endOfRange": 10000}]
        if experiment["key"] == "onboarding":
            experiment["status"] = "Paused"

    growthbook_before = {"features": {
        "paywall": {"defaultValue": "old", "rules": [
            {"id": "fr-qa", "condition": {"email": "qa@example.com"}, "force": "qa"},
            {"id": "exp-paywall", "key": "paywall-test", "coverage": 0.8, "hashAttribute": "id", "seed": "pw",
             "variations": ["old", "new", "newer"], "weights": [0.34, 0.33, 0.33],
             "meta": [{"key": "control"}, {"key": "new"}, {"key": "newer"}]}]},
        "onboarding": {"defaultValue": 0, "rules": [
            {"id": "rollout", "force": 1, "coverage": 0.3, "hashAttribute": "id"},
            {"id": "exp-onboarding", "key": "onboarding-test", "variations": [0, 1], "weights": [0.5, 0.5], "hashVersion": 2}]},
    }}
    growthbook_after = copy.deepcopy(growthbook_before)
    growthbook_after["features"]["paywall"]["rules"][1].update(
        {"variations": ["old", "new"], "weights": [0.5, 0.5], "meta": [{"key": "control"}, {"key": "new"}], "coverage": 1.0})
    growthbook_after["features"]["onboarding"]["rules"][0]["coverage"] = 0.6

    launchdarkly_before = launchdarkly_flag_data()
    launchdarkly_after = copy.deepcopy(launchdarkly_before)
    flags = launchdarkly_after["flags"]
    flags["half"]["fallthrough"]["rollout"]["variations"] = [{"variation": 0, "weight": 20000}, {"variation": 1, "weight": 80000}]
    flags["thirds"]["fallthrough"]["rollout"]["variations"] = [{"variation": 0, "weight": 50000}, {"variation": 2, "weight": 50000}]
    flags["seeded"]["fallthrough"]["rollout"]["seed"] = 62
    flags["no-salt"]["salt"] = "new-salt"
    flags["off-with"]["on"] = True
    del flags["tiny"]
    flags["rules"]["rules"] = flags["rules"]["rules"][1:]

    unleash_before = unleash_features()
    unleash_after = copy.deepcopy(unleash_before)
    for feature in unleash_after["features"]:
        if feature["name"] == "rollout-50":
            feature["strategies"][0]["parameters"]["rollout"] = "80"
        if feature["name"] == "variants":
            feature["variants"] = feature["variants"][:2]
        if feature["name"] == "rollout-user-id":
            feature["strategies"][0]["parameters"]["groupId"] = "renamed"
        if feature["name"] == "plain-on":
            feature["enabled"] = False
        if feature["name"] == "constraints-in":
            feature["strategies"][0]["constraints"][0]["values"] = ["pro"]

    eppo_before = eppo_configuration()
    eppo_after = copy.deepcopy(eppo_before)
    eppo_flags = eppo_after["flags"]
    eppo_flags["halves"]["allocations"][0]["splits"] = [
        {"variationKey": "a", "shards": [{"salt": "s1", "ranges": [{"start": 0, "end": 7000}]}]},
        {"variationKey": "b", "shards": [{"salt": "s1", "ranges": [{"start": 7000, "end": 10000}]}]}]
    eppo_flags["thirds"]["allocations"][0]["splits"][0]["shards"][0]["salt"] = "t2"
    eppo_flags["targeted"]["allocations"] = eppo_flags["targeted"]["allocations"][1:]
    eppo_flags["disabled"]["enabled"] = True

    statsig_before = statsig_specs()
    statsig_after = copy.deepcopy(statsig_before)
    for gate in statsig_after["feature_gates"]:
        if gate["name"] == "half":
            gate["rules"][0]["passPercentage"] = 75
        if gate["name"] == "tenth-fraction":
            gate["salt"] = "changed-salt"
        if gate["name"] == "off":
            gate["enabled"] = True
    for config in statsig_after["dynamic_configs"]:
        if config["name"] == "checkout":
            config["rules"][4]["conditions"][0]["targetValue"] = 300
        if config["name"] == "split-percent":
            config["rules"][0]["passPercentage"] = 20
    return {"optimizely": (optimizely_before, optimizely_after), "growthbook": (growthbook_before, growthbook_after),
            "launchdarkly": (launchdarkly_before, launchdarkly_after), "unleash": (unleash_before, unleash_after),
            "eppo": (eppo_before, eppo_after), "statsig": (statsig_before, statsig_after)}


def sdk_rows(framework, config, users, attrs):
    """{(row, id): variation} as each vendor's SDK decides, spelled as `bench bucket --json` prints it."""
    import tempfile
    result = {}
    if framework == "optimizely":
        from optimizely import optimizely as sdk
        client = sdk.Optimizely(json.dumps(config), logger=None, skip_json_validation=True)
        keys = [e["key"] for e in config["experiments"]] + [e["key"] for g in config.get("groups", []) for e in g["experiments"]]
        for user in users:
            for key in keys:
                result[(key, user)] = client.get_variation(key, user, attrs)
    elif framework == "growthbook":
        from growthbook import GrowthBook
        for user in users:
            gb = GrowthBook(attributes={**attrs, "id": user}, features=config["features"])
            for name, feature in config["features"].items():
                evaluation = gb.eval_feature(name)
                for rule in feature["rules"]:
                    if "variations" not in rule:
                        continue
                    decided = (evaluation.source == "experiment" and evaluation.ruleId == rule["id"]
                               and evaluation.experimentResult is not None and evaluation.experimentResult.inExperiment)
                    variation = None
                    if decided:
                        index = evaluation.experimentResult.variationId
                        meta = rule.get("meta") or []
                        variation = meta[index]["key"] if index < len(meta) and "key" in meta[index] else str(index)
                    result[(rule.get("key") or name, user)] = variation
            gb.destroy()
    elif framework == "launchdarkly":
        from ldclient import Context
        from ldclient.client import LDClient
        from ldclient.config import Config
        from ldclient.integrations import Files
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(config, handle)
        client = LDClient(Config("sdk-key", update_processor_class=Files.new_data_source(paths=[handle.name]),
                                 send_events=False, diagnostic_opt_out=True))
        for user in users:
            builder = Context.builder(user)
            for name, value in attrs.items():
                builder.set(name, value)
            context = builder.build()
            for key in config["flags"]:
                index = client.variation_detail(key, context, None).variation_index
                result[(key, user)] = None if index is None else str(index)
        client.close()
    elif framework == "unleash":
        from UnleashClient import UnleashClient
        from UnleashClient.cache import FileCache
        cache = FileCache("impact", directory=tempfile.mkdtemp())
        cache.bootstrap_from_dict(config)
        client = UnleashClient(url="http://127.0.0.1:9", app_name="bench", disable_metrics=True,
                               disable_registration=True, cache=cache)
        client.initialize_client(fetch_toggles=False)
        for user in users:
            for feature in config["features"]:
                variant = client.get_variant(feature["name"], {"userId": user, **attrs})
                result[(feature["name"], user)] = ("disabled" if not variant["feature_enabled"]
                                                   else variant["name"] if variant["enabled"] else "enabled")
        client.destroy()
    elif framework == "eppo":
        import eppo_client
        from eppo_client import AssignmentLogger, ClientConfig, Configuration
        client = eppo_client.init(ClientConfig(
            api_key="bench", assignment_logger=AssignmentLogger(), poll_interval_seconds=None,
            initial_configuration=Configuration(flags_configuration=json.dumps(config).encode())))
        for user in users:
            for key in config["flags"]:
                details = client.get_string_assignment_details(key, user, attrs, "default").evaluation_details \
                    if config["flags"][key]["variationType"] == "STRING" else \
                    {"INTEGER": client.get_integer_assignment_details, "NUMERIC": client.get_numeric_assignment_details,
                     "BOOLEAN": client.get_boolean_assignment_details, "JSON": client.get_json_assignment_details}[
                        config["flags"][key]["variationType"]](key, user, attrs, {"INTEGER": -1, "NUMERIC": -1.0,
                                                                               "BOOLEAN": False, "JSON": {}}[
                        config["flags"][key]["variationType"]]).evaluation_details
                result[(key, user)] = details["variationKey"] if details["flagEvaluationCode"] == "MATCH" else None
    elif framework == "statsig":
        from statsig import StatsigOptions, StatsigUser, statsig
        statsig.initialize("secret-impact", StatsigOptions(bootstrap_values=json.dumps(config), local_mode=True,
                                                            disable_diagnostics=True))
        groups = {c["name"]: {r["groupName"] for r in c["rules"] if r.get("isExperimentGroup") and r.get("groupName")}
                  for c in config["dynamic_configs"]}
        for user in users:
            statsig_user = StatsigUser(user_id=user, custom=attrs.get("custom"))
            for gate in config["feature_gates"]:
                if gate["entity"] == "feature_gate":
                    result[(gate["name"], user)] = "true" if statsig.check_gate(statsig_user, gate["name"]) else "false"
            for spec in config["dynamic_configs"]:
                if spec["entity"] == "experiment":
                    experiment = statsig.get_experiment(statsig_user, spec["name"])
                    result[(spec["name"], user)] = (experiment.group_name if experiment.passed_rule
                                                    and experiment.group_name in groups[spec["name"]] else None)
        statsig.shutdown()
    return result


def impact_fixtures(rng):
    users = [f"user-{rng.randrange(10**9)}" for _ in range(400)] + ["a", "qa-user", "über", "🧪"]
    attributes_by_framework = {"optimizely": {"platform": "iOS", "app_version": "2.1.0"}, "growthbook": {"email": "x@example.com"},
                               "launchdarkly": {"platform": "iOS", "team": "blue", "sessions": 6},
                               "unleash": {"plan": "pro", "sessionId": "s-1", "tier": "gold"}, "eppo": {"country": "US", "age": 30},
                               "statsig": {"custom": {"plan": "pro", "age": 30}}}
    (OUT / "impact").mkdir(exist_ok=True)
    (OUT / "impact" / "ids.txt").write_text("".join(u + "\n" for u in users), encoding="utf-8")
    expected = {}
    for framework, (before, after) in impact_changes().items():
        for name, config in [("before", before), ("after", after)]:
            (OUT / "impact" / f"{framework}-{name}.json").write_text(
                json.dumps(config, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        attrs = attributes_by_framework[framework]
        old, new = sdk_rows(framework, before, users, attrs), sdk_rows(framework, after, users, attrs)
        rows = sorted({row for row, _ in old} | {row for row, _ in new})
        counts = {}
        for row in rows:
            for user in users:
                pair = (row, old.get((row, user)), new.get((row, user)))
                counts[pair] = counts.get(pair, 0) + 1
        expected[framework] = {"attributes": attrs, "moves": [
            {"experiment": row, "from": a, "to": b, "count": n} for (row, a, b), n in sorted(counts.items(), key=str)]}
    return {"sdks": [OPTIMIZELY, GROWTHBOOK, LAUNCHDARKLY, UNLEASH, EPPO, STATSIG], "frameworks": expected}


def main():
    ensure_sdks()
    import logging
    logging.disable(logging.CRITICAL)
    OUT.mkdir(parents=True, exist_ok=True)
    for name, build in [("optimizely", optimizely_fixtures), ("growthbook", growthbook_fixtures),
                        ("launchdarkly", launchdarkly_fixtures), ("unleash", unleash_fixtures),
                        ("eppo", eppo_fixtures), ("statsig", statsig_fixtures),
                        ("impact", impact_fixtures)]:
        data = build(random.Random(20261122))
        path = OUT / f"{name}.json"
        path.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
