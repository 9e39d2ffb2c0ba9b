#!/bin/sh
# Run HTTP test programs against a ThreadSanitizer build of the server (tests/tsan.mk).
#
#   tsan_run.sh SERVER REPORTS PROGRAM...
#
# Each PROGRAM runs with CATAN_SERVER=SERVER (every server it starts is the TSan build) and
# the timeouts of a slow build (CK_TIMEOUT_MULTIPLIER=6: TSan runs the server 5-15 times
# slower). TSAN_OPTIONS make each server process write its reports to REPORTS/report.<pid>
# (not only to its stderr, which the suites keep in temporary logs), go on after a report
# (so one run finds them all) and exit 66 when it made one. The run fails when a program
# fails or when REPORTS holds any report afterwards; the reports are printed.
set -u
server=$1 reports=$2
shift 2
rm -rf "$reports"
mkdir -p "$reports"
here=$(cd "$(dirname "$0")" && pwd)
TSAN_OPTIONS="log_path=$(cd "$reports" && pwd)/report halt_on_error=0 exitcode=66 history_size=4 second_deadlock_stack=1 suppressions=$here/tsan.supp"
export TSAN_OPTIONS
started=$(date +%s)
failed=""
for program in "$@"; do
	echo "== $program (server: $server)"
	CATAN_SERVER=$server CK_TIMEOUT_MULTIPLIER=6 "$program" || failed="$failed $(basename "$program")"
done
elapsed=$(($(date +%s) - started))
count=$(find "$reports" -type f | wc -l)
if [ "$count" -gt 0 ]; then
	echo "== ThreadSanitizer: $count report files in $reports:"
	for report in "$reports"/*; do
		echo "---- $report"
		cat "$report"
	done
	failed="$failed tsan-reports"
fi
echo "== tsan: $# programs in ${elapsed}s, $count report files"
if [ -n "$failed" ]; then
	echo "FAILED:$failed"
	exit 1
fi
