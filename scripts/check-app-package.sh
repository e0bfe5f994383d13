#!/bin/sh
# Builds and runs a small app package that depends on this project by version, as an app would:
# a throwaway clone of the committed tree is tagged 99.0.0 and named by its file URL, and the app
# uses the products an app links (Lab, Bucketing, Enrollment, LabTestKit); its test target tests
# two release plans kept beside it with the Pipeline product, as an app's `swift test` would. It
# fails if a product is missing or cannot be built as a versioned dependency (for instance because
# it carries unsafe build flags), or if the app's checks or tests do not hold.
set -eu
cd "$(dirname "$0")/.."
# An app's build knows nothing of the test suite's optimised debug build or the fuzzing build (Package.swift).
unset LAB_BENCH_OPTIMIZED_DEBUG LAB_BENCH_FUZZING
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet . "$work/lab-bench"
git -C "$work/lab-bench" -c user.name=check -c user.email=check@localhost tag 99.0.0
mkdir -p "$work/app/Sources/App"
cat > "$work/app/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "app",
  dependencies: [.package(url: "file://$work/lab-bench", from: "99.0.0")],
  targets: [
    .executableTarget(
      name: "App",
      dependencies: [
        .product(name: "Lab", package: "lab-bench"), .product(name: "Bucketing", package: "lab-bench"),
        .product(name: "Enrollment", package: "lab-bench"), .product(name: "LabTestKit", package: "lab-bench"),
      ]),
    .testTarget(name: "ReleasePlanTests", dependencies: [.product(name: "Pipeline", package: "lab-bench")]),
  ]
)
MANIFEST
cp scripts/app-package/main.swift "$work/app/Sources/App/main.swift"
mkdir -p "$work/app/Tests/ReleasePlanTests" "$work/app/plans"
cp scripts/app-package/ReleasePlanTests.swift "$work/app/Tests/ReleasePlanTests/"
cp scenarios/decision-power.json "$work/app/plans/paywall.json"
cp scenarios/upgrade.json "$work/app/plans/upgrade.json"
swift run --package-path "$work/app" App
swift test --package-path "$work/app"
