# The two commands of the README's quick start, and the chores around them.
SWIFT ?= swift
SCENARIO ?= scenarios/upgrade.json
# The test suite runs millions of simulated launches: Package.swift optimises
# the debug build's modules that the tests run in loops (which keep assertions,
# testability and the scratch memory's bounds checks), but not its test bundles,
# when this is 1. It carries no unsafe flags otherwise, as an app that depends on
# it needs.
LAB_BENCH_OPTIMIZED_DEBUG ?= 1
export LAB_BENCH_OPTIMIZED_DEBUG
# One release build for the scratch check, the README's `swift run -c release`
# commands and the fuzzers: with this 1, Package.swift gives its readers of outside
# input libFuzzer's coverage and builds bench-fuzz on libFuzzer (the device loop
# stays uninstrumented).
# Only `make test` and `make fuzz` set it, and they build into their own scratch
# folder, so that this build and the plain release build `make compare` runs (which
# carries no coverage, so the vendors' SDK ports run at full speed) do not rebuild
# each other, and so that it can build while the unit tests hold .build/.
LAB_BENCH_FUZZING ?= 1
test fuzz: export LAB_BENCH_FUZZING := $(LAB_BENCH_FUZZING)
FUZZING_SCRATCH := .build/fuzzing

.PHONY: run test setup build compare check-foreign-fit fixtures vendor-fixtures decision-fixtures engine-fixtures confidence-fixtures growthbook-suite golden fuzz clean

## run: install what is missing, build, and run the bench on $(SCENARIO)
## (for the default scenario this rewrites the committed example, reports/upgrade/)
run: setup
	$(SWIFT) run bench $(SCENARIO)

## compare: rewrite the committed comparison, reports/compare-frameworks/
compare: setup
	$(SWIFT) run -c release bench compare scenarios/compare-frameworks.json

## test: install what is missing and run the whole test suite: the Slurm
## integration test on a one-node cluster it starts, the unit tests, the
## release build's unchecked scratch memory against the debug build's checked
## one, every command of the README's "Using the bench" and "On a cluster"
## blocks (the committed examples compared with what they write), and an app
## package that depends on the committed tree by version
test: setup
	$(MAKE) --no-print-directory -j --output-sync=target test-steps \
	  DEBUG_BENCH="$$($(SWIFT) build --show-bin-path)/bench" \
	  RELEASE_BENCH="$$($(SWIFT) build -c release --scratch-path $(FUZZING_SCRATCH) --show-bin-path)/bench"

# The steps, as many at once as their inputs allow, so that both cores stay busy
# (docs/performance.md, "CI's time, fourth step"): the debug build and the release
# build side by side; after the debug build the unit tests and the Slurm test;
# after both the scratch check, the README's commands (`swift run bench` on the
# debug build, `swift run -c release bench` on the release build, as for a
# reader), its two blocks side by side as they share no files, and the app
# package. The app package builds on its own, but the two builds keep both cores
# busy: started beside them it only delayed them, and started at the lowest
# priority it was left to finish alone at the end. Every step whose inputs are
# ready runs (`-j`), as the Slurm test and the README's Slurm line mostly wait on
# their cluster. Each step's output is printed whole when it ends. The benches'
# paths are asked for before: SwiftPM holds its lock on .build/ while `swift test`
# runs, so a step beside it cannot ask.
TEST_STEPS := test-build test-fuzzing-build test-unit-tests test-slurm test-check-scratch test-check-readme \
  test-check-readme-cluster test-app-package
.PHONY: test-steps $(TEST_STEPS)
test-steps: test-unit-tests test-check-readme test-check-readme-cluster test-slurm test-check-scratch \
  test-app-package
test-unit-tests test-slurm: test-build
test-check-readme test-check-readme-cluster test-check-scratch test-app-package: test-build test-fuzzing-build
test-build:
	sh scripts/step.sh build $(SWIFT) build --build-tests
test-fuzzing-build:
	sh scripts/step.sh fuzzing-build $(SWIFT) build -c release --scratch-path $(FUZZING_SCRATCH)
test-slurm:
	sh scripts/step.sh slurm bash Tests/Integration/slurm-test.sh "$(DEBUG_BENCH)"
test-unit-tests:
	sh scripts/step.sh unit-tests $(SWIFT) test --skip-build
test-check-scratch:
	sh scripts/step.sh check-scratch sh scripts/check-scratch.sh "$(DEBUG_BENCH)" "$(RELEASE_BENCH)"
test-check-readme:
	sh scripts/step.sh check-readme bash scripts/check-readme.sh --section using "$(DEBUG_BENCH)" "$(RELEASE_BENCH)"
test-check-readme-cluster:
	sh scripts/step.sh check-readme-cluster bash scripts/check-readme.sh --section cluster "$(DEBUG_BENCH)" \
	  "$(RELEASE_BENCH)"
test-app-package:
	sh scripts/step.sh app-package sh scripts/check-app-package.sh

## setup: install GSL through apt when pkg-config cannot find it
setup:
	@sh scripts/setup.sh

## build: build everything, tests included
build: setup
	$(SWIFT) build --build-tests

## fuzz: fuzz every reader of outside input (scenarios, tables, exports, vendor files,
## parts, --attributes) with libFuzzer for FUZZ_SECONDS (default 60, shared
## equally; TARGETS picks some); crashing inputs land in .build/fuzz/crashes/
FUZZ_SECONDS ?= 60
fuzz: setup
	sh scripts/fuzz.sh $(FUZZ_SECONDS)

## fixtures: rewrite the statistics reference values with scipy
fixtures:
	python3 scripts/make_fixtures.py

## vendor-fixtures: rewrite the Bucketing conformance fixtures with the vendors' SDKs (needs PyPI)
vendor-fixtures:
	python3 scripts/make_vendor_fixtures.py

## decision-fixtures: rewrite the experiment decision's sample sizes with spotify-confidence (needs PyPI)
decision-fixtures:
	python3 scripts/make_decision_fixtures.py

## engine-fixtures: rewrite what GrowthBook's analysis engine (gbstats 0.8.0) says of the fixture tables (needs PyPI)
engine-fixtures:
	python3 scripts/make_engine_fixtures.py

## confidence-fixtures: rewrite what Spotify's analysis engine (spotify-confidence 4.1.0) says of the fixture tables (needs PyPI)
confidence-fixtures:
	python3 scripts/make_confidence_fixtures.py

## check-foreign-fit: fit seven exports a generator that is not the bench's writes, and check the fitted worlds (needs python3)
check-foreign-fit: setup
	sh scripts/check-foreign-fit.sh

## growthbook-suite: run the committed GrowthBook SDK suite through GrowthBook's Python SDK (needs PyPI)
growthbook-suite:
	python3 scripts/check_growthbook_suite.py

## golden: rewrite the golden reports the report tests compare with
golden: setup
	sh scripts/update-golden.sh

clean:
	rm -rf .build
