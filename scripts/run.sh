#!/bin/sh
# The body of `make run`: serve with the database in DATABASE_URL, or, when it is unset,
# with a private PostgreSQL cluster under ./var/pg (created on first use and kept between
# runs, so games survive restarts).
#
#   scripts/run.sh SERVER
set -eu
server=$1
if [ -z "${DATABASE_URL:-}" ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	"$here/pg.sh" start ./var/pg >/dev/null
	DATABASE_URL=$("$here/pg.sh" url ./var/pg)
	export DATABASE_URL
	echo "make run: using the private database in ./var/pg (stop it with: scripts/pg.sh stop var/pg)"
fi
exec "$server"
