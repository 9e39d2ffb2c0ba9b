#!/bin/sh
# Turn on continuous WAL archiving into ARCHIVE, on the database of DATABASE_URL.
#
#   DATABASE_URL=... scripts/backup/enable.sh ARCHIVE
#
# Run it on the database's own machine, as root or as the user PostgreSQL runs as, with a
# DATABASE_URL of a superuser: archive_command runs there, as that user, and ARCHIVE is a
# directory of that machine (a mounted backup disk or a network file system: anywhere but
# the disk of the data directory). It makes ARCHIVE/wal and ARCHIVE/base, copies
# wal-archive.sh into ARCHIVE, and sets with ALTER SYSTEM (postgresql.auto.conf):
#
#   archive_mode = on
#   archive_command = 'ARCHIVE/wal-archive.sh "%p" "ARCHIVE/wal/%f"'
#   archive_timeout = BACKUP_ARCHIVE_TIMEOUT (default 60 s)
#
# archive_timeout bounds what a quiet database can lose with its disk: a WAL file is
# archived when full (16 MiB) or after that many seconds, whichever comes first. archive_mode
# takes effect only at a restart, which this script does not do: it says so. Then take a
# first base backup (scripts/backup/base-backup.sh ARCHIVE); a restore starts from one.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

[ $# -eq 1 ] || { echo "usage: DATABASE_URL=... scripts/backup/enable.sh ARCHIVE" >&2; exit 2; }
archive=$(backup_absolute "$1")
timeout=${BACKUP_ARCHIVE_TIMEOUT:-60}

mkdir -p "$archive/wal" "$archive/base"
cp "$here/wal-archive.sh" "$archive/wal-archive.sh"
chmod 755 "$archive/wal-archive.sh"
if [ "$(id -u)" = 0 ]; then
	chown "$backup_owner:" "$archive" "$archive/wal" "$archive/base"
fi
chmod 700 "$archive"

level=$(backup_psql -c "SHOW wal_level")
if [ "$level" = minimal ]; then
	backup_psql -c "ALTER SYSTEM SET wal_level = 'replica'"
fi
command="$archive/wal-archive.sh \"%p\" \"$archive/wal/%f\""
backup_psql -c "ALTER SYSTEM SET archive_mode = 'on'" \
	-c "ALTER SYSTEM SET archive_command = $(backup_quote "$command")" \
	-c "ALTER SYSTEM SET archive_timeout = $(backup_quote "${timeout}s")" \
	-c "SELECT pg_reload_conf()" >/dev/null
sleep 0.2 # the reload is asynchronous; pending_restart is read after it
pending=$(backup_psql -c "SELECT count(*) FROM pg_settings WHERE pending_restart")
echo "scripts/backup/enable.sh: archiving into $archive/wal"
if [ "$pending" != 0 ]; then
	echo "scripts/backup/enable.sh: restart PostgreSQL now: archive_mode takes effect at a restart" \
		"(scripts/pg.sh restart DIR, pg_ctlcluster 15 main restart, systemctl restart postgresql ...)"
fi
