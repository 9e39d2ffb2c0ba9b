#!/bin/sh
# Restore a new cluster from ARCHIVE as the database was at TIME (point-in-time recovery).
#
#   scripts/backup/restore.sh ARCHIVE TIME DIR [--start]
#
# TIME is a PostgreSQL timestamp with its zone ('2026-12-01 18:50:00+00'), or `latest` for
# everything the archive holds. DIR is a new directory: the cluster is made in DIR/data,
# the layout of scripts/pg.sh. The newest base backup of ARCHIVE/base that finished before
# TIME is copied there and set to replay the archived WAL (restore_command) up to TIME and
# then become a primary of its own, on a new timeline (recovery_target_action = promote).
# A transaction that committed at TIME or before is in the result; one committed after it
# is not: a move acknowledged before TIME is there, a move or a DELETE after it is not.
#
# The restored cluster does not archive (archive_mode = off): it must not write into the
# archive it came from while someone checks it. To make it the new primary, point the
# servers' DATABASE_URL at it, then scripts/backup/enable.sh with a new archive directory,
# restart it, and take a base backup (docs/backup.md).
#
# With --start it is started at once on a Unix socket in DIR only (no TCP, so no client
# finds it by accident; port BACKUP_RESTORE_PORT, default 5432), waits until the replay
# reached TIME and the cluster was promoted, and prints its connection string (add user=
# and dbname=). Without it, start it yourself (scripts/pg.sh start DIR, or pg_ctl -D DIR/data
# start) and watch its log: "recovery stopping before commit of transaction ..., time ..."
# then "database system is ready to accept connections". A TIME after the last archived
# commit fails the replay ("recovery ended before configured recovery target was reached").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

usage() {
	echo "usage: scripts/backup/restore.sh ARCHIVE TIME|latest DIR [--start]" >&2
	exit 2
}
[ $# -eq 3 ] || [ $# -eq 4 ] || usage
archive=$(backup_absolute "$1")
target=$2
start=0
if [ $# -eq 4 ]; then
	[ "$4" = --start ] || usage
	start=1
fi
[ -d "$archive/base" ] && [ -d "$archive/wal" ] || {
	echo "scripts/backup/restore.sh: $archive is not an archive" >&2
	exit 1
}
mkdir -p "$3"
dir=$(cd "$3" && pwd)
data=$dir/data
[ ! -e "$data" ] || { echo "scripts/backup/restore.sh: $data exists: restore into a new directory" >&2; exit 1; }

# The base backup: the newest that finished before TIME.
if [ "$target" = latest ]; then
	limit=""
else
	limit=$(date -u -d "$target" +%s.%N 2>/dev/null) || {
		echo "scripts/backup/restore.sh: cannot read the time '$target' (say e.g. '2026-12-01 18:50:00+00')" >&2
		exit 1
	}
fi
chosen=""
for backup in "$archive"/base/*Z; do
	[ -f "$backup/catan_backup_finished" ] || continue
	if [ -n "$limit" ]; then
		finished=$(date -u -d "$(cat "$backup/catan_backup_finished")" +%s.%N)
		awk -v a="$finished" -v b="$limit" 'BEGIN { exit !(a <= b) }' || continue
	fi
	chosen=$backup # the names sort by time, so the last one that fits is the newest
done
[ -n "$chosen" ] || {
	echo "scripts/backup/restore.sh: no base backup in $archive/base finished before $target" >&2
	exit 1
}
echo "scripts/backup/restore.sh: from $chosen (finished $(cat "$chosen/catan_backup_finished"))" >&2

cp -a "$chosen" "$data"
rm -f "$data/catan_backup_finished" "$data/backup_manifest"
# A data directory of a Debian cluster has its configuration in /etc: give it the least.
[ -f "$data/postgresql.conf" ] || : >"$data/postgresql.conf"
[ -f "$data/pg_hba.conf" ] || echo "local all all peer" >"$data/pg_hba.conf"
[ -f "$data/pg_ident.conf" ] || : >"$data/pg_ident.conf"
{
	echo "# scripts/backup/restore.sh, $(date -u '+%Y-%m-%d %H:%M:%S+00'): from $chosen"
	echo "restore_command = $(backup_quote "cp \"$archive/wal/%f\" \"%p\"")"
	if [ "$target" != latest ]; then
		echo "recovery_target_time = $(backup_quote "$target")"
	fi
	echo "recovery_target_action = 'promote'"
	echo "archive_mode = 'off'"
} >>"$data/postgresql.auto.conf"
: >"$data/recovery.signal"
if [ "$(id -u)" = 0 ]; then
	chown -R "$backup_owner:" "$dir"
fi
chmod 700 "$dir" "$data"

if [ "$start" = 0 ]; then
	echo "scripts/backup/restore.sh: restored into $data; start it (scripts/pg.sh start $dir) to replay up to $target"
	exit 0
fi

port=${BACKUP_RESTORE_PORT:-5432}
socket=$(printf '%s' "$dir" | sed "s/'/''/g")
as_owner "$backup_bindir/pg_ctl" start -w -t 600 -D "$data" -l "$dir/postgresql.log" \
	-o "-c unix_socket_directories='$socket' -c listen_addresses='' -c port=$port" >/dev/null || {
	tail -n 20 "$dir/postgresql.log" >&2
	exit 1
}
# pg_ctl returns once connections are taken, which a standby does while it replays: wait
# for the promotion (or for the replay's failure, which stops the postmaster).
waited=0
while :; do
	recovering=$("$backup_bindir/psql" -X -q -t -A -h "$dir" -p "$port" -U "$backup_owner" -d postgres \
		-c "SELECT pg_is_in_recovery()" 2>/dev/null || echo failed)
	[ "$recovering" = f ] && break
	if ! as_owner "$backup_bindir/pg_ctl" status -D "$data" >/dev/null 2>&1 || [ "$waited" -ge 6000 ]; then
		echo "scripts/backup/restore.sh: the replay did not finish:" >&2
		tail -n 20 "$dir/postgresql.log" >&2
		exit 1
	fi
	sleep 0.1
	waited=$((waited + 1))
done
grep -h "recovery stopping\|last completed transaction\|selected new timeline" "$dir/postgresql.log" >&2 || true
printf "host='%s' port=%s\n" "$socket" "$port"
