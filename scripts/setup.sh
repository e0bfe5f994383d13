#!/bin/sh
# Installs what Lab Bench needs beyond Swift, through apt, only when it is
# missing: GNU GSL and pkg-config to build, and Slurm and munge for the cluster
# integration test (Tests/Integration/slurm-test.sh). Does nothing when they
# are already there.
set -eu

packages=""
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists gsl; then
  packages="libgsl-dev pkg-config"
fi
# The integration test runs the Slurm daemons as root, so only root gets them.
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v slurmd >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    packages="$packages slurm-wlm munge"
  else
    echo "setup: Slurm is not installed; the cluster integration test will be skipped (it needs root)." >&2
  fi
fi
[ -z "$packages" ] && exit 0
packages=${packages# }

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
  echo "setup: installing $packages needs root; run: apt-get install -y $packages" >&2
  exit 1
fi

echo "setup: installing $packages through apt" >&2
$run_as_root apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $run_as_root apt-get install -y -qq $packages >/dev/null
pkg-config --exists gsl
