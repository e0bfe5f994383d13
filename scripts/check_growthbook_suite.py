#!/usr/bin/env python3
"""Runs GrowthBook's SDK test suite, as committed, through GrowthBook's own Python SDK.

Tests/BucketingTests/Fixtures/growthbook-suite/cases.json holds the sections of the suite every
GrowthBook SDK runs (see the README beside it) that `bench bucket` can express, transcribed from
the growthbook-python repository. This script checks the transcription against the pinned SDK
(growthbook==4.0.0, the version scripts/make_vendor_fixtures.py pins): every case's expected
outcome must be what the SDK returns, so a case mistyped in the fixture shows here rather than as
a Swift failure. It prints one line per section and every disagreement, and exits 1 on any.

Run: python3 scripts/check_growthbook_suite.py   (installs the SDK under .build/vendor-sdks first)
"""
import json
import pathlib
import sys

from pinned_packages import rerun_with

GROWTHBOOK = "growthbook==4.0.0"
ROOT = pathlib.Path(__file__).resolve().parent.parent
SUITE = ROOT / "Tests" / "BucketingTests" / "Fixtures" / "growthbook-suite" / "cases.json"
ENV = ROOT / ".build" / "vendor-sdks"


def ensure_sdk():
    """Re-runs this script inside the virtual environment that holds the pinned SDK."""
    rerun_with([GROWTHBOOK], ENV, "LAB_BENCH_VENDOR_ENV", __file__)


def rounded(value, digits):
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, list):
        return [rounded(item, digits) for item in value]
    return value


def experiment_from(spec, experiment_class):
    known = dict(spec)
    if "namespace" in known and known["namespace"] is not None:
        known["namespace"] = tuple(known["namespace"])
    return experiment_class(**known)


RESULT_FIELDS = ["value", "variationId", "inExperiment", "hashUsed", "hashAttribute", "hashValue", "key",
                 "bucket", "stickyBucketUsed", "name"]


def result_subset(result):
    """The experiment result's fields the suite states, from the SDK's result."""
    data = result.to_dict()
    return {field: data.get(field) for field in RESULT_FIELDS}


def differs_from_expected(expected, actual):
    """The fields of an expected experiment result the SDK's result does not have."""
    return {field: (value, actual.get(field)) for field, value in expected.items()
            if field in RESULT_FIELDS and actual.get(field) != value}


def main():
    ensure_sdk()
    from growthbook import GrowthBook, Experiment, InMemoryStickyBucketService
    from growthbook import core

    suite = json.loads(SUITE.read_text(encoding="utf-8"))
    problems = []

    def check(section, name, expected, actual):
        if expected != actual:
            problems.append(f"{section}: {name}: suite says {expected!r}, SDK gives {actual!r}")

    for case in suite["evalCondition"]:
        name, condition, attributes, expected = case[:4]
        groups = case[4] if len(case) > 4 else {}
        check("evalCondition", name, expected, core.evalCondition(attributes, condition, groups))
    for seed, value, version, expected in suite["hash"]:
        check("hash", f"{seed}/{value}/{version}", expected, core.gbhash(seed, value, version))
    for name, (count, coverage, weights), expected in suite["getBucketRange"]:
        ranges = [list(r) for r in core.getBucketRanges(count, coverage, weights)]
        check("getBucketRange", name, rounded(expected, 6), rounded(ranges, 6))
    for name, n, ranges, expected in suite["chooseVariation"]:
        check("chooseVariation", name, expected, core.chooseVariation(n, [tuple(r) for r in ranges]))
    for name, user, namespace, expected in suite["inNamespace"]:
        check("inNamespace", name, expected, core.inNamespace(user, tuple(namespace)))
    for count, expected in suite["getEqualWeights"]:
        check("getEqualWeights", str(count), rounded(expected, 8), rounded(core.getEqualWeights(count), 8))

    def growthbook(context, **extra):
        return GrowthBook(
            attributes=context.get("attributes", {}), features=context.get("features", {}),
            forced_variations=context.get("forcedVariations", {}), qa_mode=context.get("qaMode", False),
            enabled=context.get("enabled", True), url=context.get("url", ""),
            saved_groups=context.get("savedGroups", {}), **extra)

    for name, context, key, expected in suite["feature"]:
        result = growthbook(context).eval_feature(key)
        data = result.to_dict()
        for field in ["value", "on", "off", "source", "ruleId"]:
            check("feature", f"{name} ({field})", expected[field], data[field])
        if "experimentResult" in expected:
            actual = result_subset(result.experimentResult) if result.experimentResult else {}
            for field, (want, got) in differs_from_expected(expected["experimentResult"], actual).items():
                check("feature", f"{name} (experimentResult.{field})", want, got)

    for name, context, spec, value, in_experiment, hash_used in suite["run"]:
        result = growthbook(context).run(experiment_from(spec, Experiment))
        check("run", name, [value, in_experiment, hash_used], [result.value, result.inExperiment, result.hashUsed])

    for name, context, stored, key, expected, expected_docs in suite["stickyBucket"]:
        service = InMemoryStickyBucketService()
        for doc in stored:
            service.save_assignments(doc)
        result = growthbook(context, sticky_bucket_service=service).eval_feature(key).experimentResult
        if expected is None:
            check("stickyBucket", name, None, None if result is None else result_subset(result))
        else:
            actual = result_subset(result) if result else {}
            for field, (want, got) in differs_from_expected(expected, actual).items():
                check("stickyBucket", f"{name} ({field})", want, got)
        # The suite lists the documents of this user (of its attributes' values), as the context holds them.
        attributes = context.get("attributes", {})
        own = {key: doc for key, doc in service.docs.items() if attributes.get(doc["attributeName"]) == doc["attributeValue"]}
        check("stickyBucket", f"{name} (docs)", expected_docs, own)

    for section in ["evalCondition", "hash", "getBucketRange", "feature", "run", "chooseVariation", "inNamespace",
                    "getEqualWeights", "stickyBucket"]:
        failing = sum(1 for problem in problems if problem.startswith(section + ":"))
        print(f"{section}: {len(suite[section])} cases, {failing} disagreements")
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
