# Sourced by scripts/pg.sh, scripts/ha/cluster.sh and scripts/backup/common.sh (not run on
# its own): where PostgreSQL's programs are, and the user a cluster belongs to.
#
#   pg_find_bindir PROGRAM [FIRST]   print the directory of PostgreSQL's programs that has
#                                    PROGRAM: FIRST when it has it, else pg_config's
#                                    bindir, else the newest /usr/lib/postgresql/*/bin;
#                                    nothing when none has it
#   pg_set_owner [USER]              set pg_owner and as_owner(): as root the cluster
#                                    belongs to USER (default postgres), and as_owner runs
#                                    a program as it (runuser: initdb refuses root); as
#                                    anyone else both are that user

pg_find_bindir() {
	if [ -n "${2:-}" ] && [ -x "$2/$1" ]; then
		echo "$2"
		return 0
	fi
	if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/$1" ]; then
		pg_config --bindir
		return 0
	fi
	found=""
	for candidate in /usr/lib/postgresql/*/bin; do
		[ -x "$candidate/$1" ] && found=$candidate
	done
	[ -n "$found" ] && echo "$found"
	return 0
}

pg_set_owner() {
	if [ "$(id -u)" = 0 ]; then
		pg_owner=${1:-postgres}
		as_owner() { runuser -u "$pg_owner" -- "$@"; }
	else
		pg_owner=$(id -un)
		as_owner() { "$@"; }
	fi
}
