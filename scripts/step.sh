#!/bin/sh
# Runs one step of the test pipeline and prints its wall time and the CPU time of its processes, so
# that a slow CI run says where the minutes went and whether the cores were busy:
# scripts/step.sh NAME COMMAND [ARGUMENTS...]. Exits with the command's status.
name=$1
shift
started=$(date +%s)
status=0
"$@" || status=$?
wall=$(( $(date +%s) - started ))
# `times` prints the shell's own user and system time, then its children's (e.g. "1m2.5s 0m3.0s");
# it is read from a file, as a subshell would report its own children's.
times_file=$(mktemp)
times >"$times_file"
cpu=$(awk 'NR == 2 {
  total = 0
  for (i = 1; i <= 2; i++) { split($i, part, "m"); total += part[1] * 60 + part[2] }
  printf "%.0f", total
}' "$times_file")
rm -f "$times_file"
echo "step $name: $wall s, $cpu s of CPU$( [ "$status" -eq 0 ] || echo ", failed with status $status")"
exit "$status"
