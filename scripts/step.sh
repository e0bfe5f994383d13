#!/bin/sh
# Runs one step of the test pipeline and prints its wall time, so that a slow CI run says where the
# minutes went: scripts/step.sh NAME COMMAND [ARGUMENTS...]. Exits with the command's status.
name=$1
shift
started=$(date +%s)
status=0
"$@" || status=$?
echo "step $name: $(( $(date +%s) - started )) s$( [ "$status" -eq 0 ] || echo ", failed with status $status")"
exit "$status"
