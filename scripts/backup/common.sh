# Sourced by the scripts of scripts/backup/ (not run on its own): PostgreSQL's programs,
# the operating-system user the database server runs as, and how to run a program as it.
#
# The archive and the restored data directories belong to the user PostgreSQL runs as:
# archive_command runs as that user and writes the archive, and a data directory must be
# its owner's alone. As root that user is BACKUP_OS_USER (default postgres), and every
# program that writes files runs as it (runuser); as anyone else, it is that user.

# PostgreSQL's programs and the owner, by the rules of scripts/pg.sh (scripts/pg-common.sh).
. "$here/../pg-common.sh" # $here: the sourcing script's directory, scripts/backup
backup_bindir=$(pg_find_bindir pg_basebackup)
if [ -z "$backup_bindir" ]; then
	echo "$0: PostgreSQL's programs not found (apt-get install postgresql)" >&2
	exit 1
fi
pg_set_owner "${BACKUP_OS_USER:-postgres}"
backup_owner=$pg_owner

# psql on DATABASE_URL (libpq's defaults when unset), one value per line, stop on error.
backup_psql() {
	"$backup_bindir/psql" -X -q -t -A -v ON_ERROR_STOP=1 -d "${DATABASE_URL:-}" "$@"
}

# An absolute path for $1 (which may not exist yet; its parent must).
backup_absolute() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$(pwd)" "$1" ;;
	esac
}

# A value single-quoted for postgresql.conf or SQL.
backup_quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"
}
