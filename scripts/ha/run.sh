#!/bin/sh
# Run a command against a PostgreSQL HA cluster made for it (scripts/ha/cluster.sh): the
# cluster is started in a temporary directory, DATABASE_URL (three hosts,
# target_session_attrs=read-write) and HA_DIR are exported, the schema is migrated
# (catan-server migrate, CATAN_SERVER), CMD runs, and everything is stopped and removed
# afterwards, interrupts included. The exit status is CMD's.
#
#   scripts/ha/run.sh CMD [ARG...]
set -eu

[ $# -ge 1 ] || { echo "usage: scripts/ha/run.sh CMD [ARG...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/catan-ha.XXXXXX")
cleanup() {
	"$here/cluster.sh" stop "$dir" >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$here/cluster.sh" start "$dir"
. "$dir/env"
export HA_DIR HA_NETNS DATABASE_URL
if [ -n "${CATAN_SERVER:-}" ]; then
	"$CATAN_SERVER" migrate >"$dir/migrate.log" 2>&1 || { cat "$dir/migrate.log" >&2; exit 1; }
fi

set +e
"$@"
status=$?
set -e
exit $status
