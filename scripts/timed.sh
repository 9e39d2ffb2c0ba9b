#!/bin/sh
# timed.sh NAME COMMAND...: run COMMAND, then print how long it took ("stage NAME: 42 s, ok"
# or "..., failed (2)") on stderr and into build/test-stages.txt; exit with COMMAND's status.
# `make test` runs each of its stages through it, so a run says where its minutes went.
name=$1
shift
start=$(date +%s)
"$@"
status=$?
seconds=$(($(date +%s) - start))
if [ "$status" -eq 0 ]; then outcome=ok; else outcome="failed ($status)"; fi
mkdir -p build
echo "stage $name: $seconds s, $outcome" | tee -a build/test-stages.txt >&2
exit "$status"
