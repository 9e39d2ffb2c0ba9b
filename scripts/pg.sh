#!/bin/sh
# A private PostgreSQL cluster in a directory of its own, for `make run` (./var/pg) and the
# tests (a throwaway directory, see scripts/with-postgres.sh).
#
#   scripts/pg.sh start DIR     create the cluster when DIR has none, start it (idempotent),
#                               and create the database (PG_DATABASE, default catan)
#   scripts/pg.sh stop DIR      stop it (fast: open sessions are ended); data are kept
#   scripts/pg.sh restart DIR   stop and start
#   scripts/pg.sh status DIR    exit 0 when it is running
#   scripts/pg.sh url DIR       print the libpq connection string of the database
#   scripts/pg.sh standby DIR PRIMARY
#                               make DIR a streaming replica (hot standby) of the running
#                               cluster of directory PRIMARY (pg_basebackup -R) and start it;
#                               start, stop and url then work on DIR as on any cluster
#
# The server listens on a Unix socket in DIR only; with PG_PORT=N it also listens on
# 127.0.0.1:N (the socket is then DIR/.s.PGSQL.N). Authentication is `trust`: the cluster
# is for one developer or one test run, and DIR is readable by its owner alone. initdb
# refuses to run as root, so as root the cluster belongs to the postgres user (runuser).
# Durability is PostgreSQL's default (fsync on).
set -eu

usage() {
	echo "usage: scripts/pg.sh start|stop|restart|status|url DIR | standby DIR PRIMARY" >&2
	exit 2
}

if [ $# -ne 2 ] && ! { [ $# -eq 3 ] && [ "$1" = standby ]; }; then
	usage
fi
command=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
data=$dir/data
port=${PG_PORT:-5432}
database=${PG_DATABASE:-catan}

# PostgreSQL's programs (pg_config's bindir when it has them, else the newest installed)
# and the cluster's owner: scripts/pg-common.sh.
. "$(cd "$(dirname "$0")" && pwd)/pg-common.sh"
bindir=$(pg_find_bindir initdb)
if [ -z "$bindir" ]; then
	echo "scripts/pg.sh: PostgreSQL server programs not found (apt-get install postgresql)" >&2
	exit 1
fi
pg_set_owner
owner=$pg_owner

# A connection string value, single-quoted for libpq.
quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/[\\\\']/\\\\&/g")"
}

url() {
	printf 'host=%s port=%s user=%s dbname=%s\n' "$(quote "$dir")" "$port" "$(quote "$owner")" "$(quote "$database")"
}

running() {
	as_owner "$bindir/pg_ctl" status -D "$data" >/dev/null 2>&1
}

init() {
	[ -f "$data/PG_VERSION" ] && return 0
	if [ "$(id -u)" = 0 ]; then
		chown postgres: "$dir"
	fi
	chmod 700 "$dir"
	as_owner "$bindir/initdb" -D "$data" --auth=trust --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 || {
		cat "$dir/initdb.log" >&2
		exit 1
	}
	echo "include_if_exists = 'catan.conf'" >>"$data/postgresql.conf"
}

start() {
	init
	running && return 0
	# Written at every start, so a moved DIR or another PG_PORT takes effect.
	{
		printf "unix_socket_directories = '%s'\n" "$(printf '%s' "$dir" | sed "s/'/''/g")"
		printf "port = %s\n" "$port"
		if [ -n "${PG_PORT:-}" ]; then
			echo "listen_addresses = '127.0.0.1'"
		else
			echo "listen_addresses = ''"
		fi
	} >"$dir/catan.conf"
	[ "$(id -u)" = 0 ] && chown postgres: "$dir/catan.conf"
	mv "$dir/catan.conf" "$data/catan.conf"
	as_owner "$bindir/pg_ctl" start -w -t 60 -D "$data" -l "$dir/postgresql.log" >/dev/null || {
		tail -n 20 "$dir/postgresql.log" >&2
		exit 1
	}
	exists=$("$bindir/psql" -X -q -t -A -h "$dir" -p "$port" -U "$owner" -d postgres \
		-c "SELECT 1 FROM pg_database WHERE datname = '$database'")
	if [ "$exists" != 1 ]; then
		"$bindir/createdb" -h "$dir" -p "$port" -U "$owner" "$database"
	fi
}

# A hot standby of PRIMARY (its socket directory, same port) in DIR/data: the base backup
# streams the WAL it needs and writes primary_conninfo (-R); the initdb of pg.sh trusts
# local replication connections.
standby() {
	primary=$(cd "$1" && pwd)
	[ -f "$data/PG_VERSION" ] && { start; return 0; }
	[ "$(id -u)" = 0 ] && chown postgres: "$dir"
	chmod 700 "$dir"
	as_owner "$bindir/pg_basebackup" -h "$primary" -p "$port" -U "$owner" -D "$data" -R -X stream \
		-c fast >"$dir/basebackup.log" 2>&1 || {
		cat "$dir/basebackup.log" >&2
		exit 1
	}
	start
}

stop() {
	running || return 0
	as_owner "$bindir/pg_ctl" stop -w -t 60 -m fast -D "$data" >/dev/null
}

case $command in
start) start ;;
stop) stop ;;
restart) stop && start ;;
status) running ;;
url) url ;;
standby)
	[ $# -eq 3 ] || usage
	standby "$3"
	;;
*) usage ;;
esac
