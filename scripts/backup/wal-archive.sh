#!/bin/sh
# PostgreSQL's archive_command for the archives of scripts/backup/ (enable.sh copies this
# file into the archive and points archive_command at the copy):
#
#   archive_command = '/path/to/ARCHIVE/wal-archive.sh "%p" "/path/to/ARCHIVE/wal/%f"'
#
# Copies one finished WAL file (or a .history or .backup file) into the archive, durably:
# to a temporary name, flushed to disk, renamed, the directory flushed; only then does it
# exit 0, and only then does PostgreSQL recycle the segment. A file that is already in
# the archive with the same bytes is success (PostgreSQL may ask again after a crash
# between the copy and its own note of it); with other bytes it is a failure that
# PostgreSQL retries forever and logs, never an overwrite: two clusters archiving into one
# place, or a restored cluster still pointed at its old archive, must not destroy the
# history a restore needs.
set -eu
[ $# -eq 2 ] || { echo "usage: wal-archive.sh SOURCE DESTINATION" >&2; exit 2; }
source=$1
destination=$2
if [ -f "$destination" ]; then
	if cmp -s "$source" "$destination"; then
		exit 0
	fi
	echo "wal-archive.sh: $destination is already archived with other contents" >&2
	exit 1
fi
temporary="$destination.partial.$$"
cp "$source" "$temporary"
sync "$temporary"
mv "$temporary" "$destination"
sync "$(dirname "$destination")"
