#!/bin/sh
# Take a base backup of the database of DATABASE_URL into ARCHIVE/base/<UTC time>/.
#
#   DATABASE_URL=... scripts/backup/base-backup.sh ARCHIVE
#
# A base backup is a copy of the whole data directory taken while the database runs
# (pg_basebackup, with the WAL it needs streamed alongside, so each one is whole by itself),
# checked against its manifest (pg_verifybackup) before it counts. With the WAL archive
# that enable.sh turned on, it is where a restore to any later time starts. Take one daily
# (cron) and after every migration; a restore replays the WAL since its base backup, so the
# gap between base backups is the time a restore takes at worst.
#
# The backup is written under a .partial name and renamed when verified; its time of
# completion is written to <backup>/catan_backup_finished (UTC), which restore.sh reads to
# pick the newest base backup finished before the time asked for. With BACKUP_KEEP=N, only
# the newest N base backups are kept and the archived WAL older than the oldest of them is
# removed (pg_archivecleanup); default: keep everything.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

[ $# -eq 1 ] || { echo "usage: DATABASE_URL=... scripts/backup/base-backup.sh ARCHIVE" >&2; exit 2; }
archive=$(backup_absolute "$1")
[ -d "$archive/base" ] && [ -d "$archive/wal" ] || {
	echo "scripts/backup/base-backup.sh: $archive is not an archive (run scripts/backup/enable.sh first)" >&2
	exit 1
}
mode=$(backup_psql -c "SHOW archive_mode")
[ "$mode" = on ] || [ "$mode" = always ] || {
	echo "scripts/backup/base-backup.sh: archive_mode is $mode: run scripts/backup/enable.sh and restart PostgreSQL" >&2
	exit 1
}

stamp=$(date -u +%Y%m%dT%H%M%SZ)
target="$archive/base/$stamp"
partial="$target.partial"
[ ! -e "$target" ] || { echo "scripts/backup/base-backup.sh: $target exists" >&2; exit 1; }
as_owner "$backup_bindir/pg_basebackup" -d "${DATABASE_URL:-}" -D "$partial" -Fp -X stream -c fast \
	--label "catan $stamp" --no-password
as_owner "$backup_bindir/pg_verifybackup" -q "$partial"
date -u '+%Y-%m-%d %H:%M:%S.%N+00' >"$partial/catan_backup_finished"
mv "$partial" "$target"
echo "scripts/backup/base-backup.sh: $target ($(du -sh "$target" | cut -f1))"

keep=${BACKUP_KEEP:-0}
if [ "$keep" -gt 0 ]; then
	ls -1d "$archive"/base/*Z | sort -r | tail -n +"$((keep + 1))" | while read -r old; do
		rm -rf "$old"
	done
	oldest=$(ls -1d "$archive"/base/*Z | sort | head -n 1)
	# The first WAL file the oldest kept backup needs: "START WAL LOCATION: 0/2000028 (file 0000...)".
	first=$(sed -n 's/^START WAL LOCATION: .*(file \([0-9A-F]*\))$/\1/p' "$oldest/backup_label")
	if [ -n "$first" ]; then
		as_owner "$backup_bindir/pg_archivecleanup" "$archive/wal" "$first"
	fi
fi
