#!/bin/sh
# Run one test program as `make test` does, and say how it went and how long it took.
#
#   scripts/run-test.sh [--pg] LOG PROGRAM [ARG...]
#
# With --pg the program gets a throwaway PostgreSQL cluster of its own
# (scripts/with-postgres.sh; none when DATABASE_URL is set), so programs that stop and start
# their database (the outage and fault tests) disturb no other, and `make -j` can run them
# side by side (tests/tests.mk). Prints "== PROGRAM" and the program's output, then a last
# line "-- PROGRAM: ok|SKIPPED|FAILED (status) in S s"; appends "S PROGRAM ok|SKIPPED|FAILED"
# to LOG (the times that order the runs, longest first). The exit status is the program's,
# but 0 for 77: the program could not run here and said why (Automake's "skipped"; e.g.
# test_async_mail_postfix without Postfix or root).
set -u

pg=""
if [ "${1:-}" = "--pg" ]; then
	pg=1
	shift
fi
[ $# -ge 2 ] || { echo "usage: scripts/run-test.sh [--pg] LOG PROGRAM [ARG...]" >&2; exit 2; }
log=$1
shift
here=$(cd "$(dirname "$0")" && pwd)

echo "== $1"
start=$(date +%s.%N)
if [ -n "$pg" ]; then
	"$here/with-postgres.sh" "$@"
else
	"$@"
fi
status=$?
seconds=$(echo "$(date +%s.%N) $start" | awk '{printf "%.1f", $1 - $2}')
if [ $status -eq 0 ]; then
	echo "-- $1: ok in $seconds s"
	result=ok
elif [ $status -eq 77 ]; then
	echo "-- $1: SKIPPED in $seconds s"
	result=SKIPPED
	status=0
else
	echo "-- $1: FAILED ($status) in $seconds s"
	result=FAILED
fi
mkdir -p "$(dirname "$log")"
echo "$seconds $1 $result" >>"$log"
exit $status
