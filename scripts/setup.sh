#!/bin/sh
# Installs what Lab Bench needs beyond Swift: GNU GSL and pkg-config, through apt,
# when pkg-config cannot find GSL. Does nothing when they are already there.
set -eu

if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists gsl; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: GSL not found and apt-get is not available." >&2
  echo "setup: install GSL and pkg-config with your package manager (macOS: brew install gsl pkg-config)." >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  run_as_root=""
elif command -v sudo >/dev/null 2>&1; then
  run_as_root="sudo"
else
  echo "setup: installing libgsl-dev needs root; run: apt-get install -y libgsl-dev pkg-config" >&2
  exit 1
fi

echo "setup: installing libgsl-dev and pkg-config through apt" >&2
$run_as_root apt-get update -qq
DEBIAN_FRONTEND=noninteractive $run_as_root apt-get install -y -qq libgsl-dev pkg-config >/dev/null
pkg-config --exists gsl
