#!/bin/sh
# Run a command against a PostgreSQL database.
#
#   scripts/with-postgres.sh CMD [ARG...]
#
# With DATABASE_URL set, CMD simply runs with it. Otherwise a throwaway cluster is made in
# a temporary directory (scripts/pg.sh), DATABASE_URL is exported for it, CMD runs, and the
# cluster is stopped and removed; the exit status is CMD's. Tests that must stop and start
# the server (the outage test) find the cluster's directory in CATAN_TEST_PG_DIR and this
# script's pg.sh in CATAN_PG_SCRIPT; neither is set when DATABASE_URL was given.
set -eu

[ $# -ge 1 ] || { echo "usage: scripts/with-postgres.sh CMD [ARG...]" >&2; exit 2; }

if [ -n "${DATABASE_URL:-}" ]; then
	exec "$@"
fi

here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/catan-pg.XXXXXX")
# On exit, interrupts included (SIGINT or SIGTERM to the process group of `make test`): the
# cluster stops and its directory goes. A signal during `pg.sh start` can leave a postmaster
# that pg_ctl no longer waits for: the pid in postmaster.pid gets an immediate shutdown.
cleanup() {
	"$here/pg.sh" stop "$dir" >/dev/null 2>&1 || true
	pid=$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null || true)
	case $pid in
	'' | *[!0-9]*) ;;
	*) kill -QUIT "$pid" 2>/dev/null && sleep 1 ;;
	esac
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$here/pg.sh" start "$dir"
DATABASE_URL=$("$here/pg.sh" url "$dir")
CATAN_TEST_PG_DIR=$dir
CATAN_PG_SCRIPT=$here/pg.sh
export DATABASE_URL CATAN_TEST_PG_DIR CATAN_PG_SCRIPT

set +e
"$@"
status=$?
set -e
exit $status
