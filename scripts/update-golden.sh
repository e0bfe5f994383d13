#!/bin/sh
# Rewrites the golden reports that Tests/BenchCLITests/ReportTests.swift compares with,
# from the cases in Tests/BenchCLITests/Golden/cases.txt. Read the diff before committing it.
set -eu
cd "$(dirname "$0")/.."
swift build --product bench
golden=Tests/BenchCLITests/Golden
while read -r name scenario options; do
  [ -n "$name" ] || continue
  rm -rf "$golden/$name"
  # shellcheck disable=SC2086
  .build/debug/bench "$scenario" $options --out "$golden" --quiet
done < "$golden/cases.txt"
