#!/bin/sh
# make check-layers: each folder includes only the folders below it (README's source
# layout), no folder includes another's internal header (<name>_internal.h), and no two
# modules are in a circle (scripts/check-cycles.py). Prints every include that breaks the
# rule and exits 1 when there is one.
#
#   base/     the C library and base/ only
#   engine/   the C library and engine/ only
#   codec/    base/, engine/, codec/ (and jansson)
#   render/   base/, engine/, render/ (and cairo)
#   db/       base/, db/ (and libpq, OpenSSL)
#   game/     base/, engine/, codec/, db/, game/
#   http/     base/, engine/ (the refusals' codes), codec/, http/ (and libmicrohttpd)
#   deliver/  base/, engine/, codec/, game/, deliver/ (and libcurl, OpenSSL)
#   api/      base/, engine/, codec/, game/, render/, http/, deliver/, api/
#   (http/, deliver/ and api/ never include db/: the store is reached through game/'s
#   functions, whose headers bring the store's types along)
#   cmd/ bench/ openapi/   any library folder (and their own), never tests/
#   tests/    anything
set -eu
cd "$(dirname "$0")/.."

C_LIBRARY="assert.h ctype.h errno.h float.h inttypes.h limits.h math.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h time.h"
status=0

# includes FOLDER OPEN: every include of FOLDER's files written with OPEN (" or <), one
# "file:line:target" a line.
includes() {
	for file in $(find "$1" -name '*.[ch]' | sort); do
		grep -n "^[[:space:]]*#[[:space:]]*include[[:space:]]*$2" "$file" |
			sed "s|^\([0-9]*\):[^$2]*$2\([^\">]*\).*|$file:\1:\2|"
	done
}

# allowed FOLDER PREFIXES...: every quoted include of FOLDER's files names a file of FOLDER
# itself or of one of PREFIXES (or of its own folder, written without a folder), and no
# other folder's internal header (<name>_internal.h).
allowed() {
	folder=$1
	shift
	includes "$folder" '"' | while IFS=: read -r file line target; do
		case "$target" in
		*/*) ;;
		*) continue ;;
		esac
		ok=0
		for prefix in "$folder" "$@"; do
			case "$target" in
			"$prefix"/*) ok=1 ;;
			esac
		done
		if [ $ok = 0 ]; then
			echo "check-layers: $file:$line includes \"$target\" ($folder/ may include: $*)"
		fi
		case "$target" in
		"$folder"/*) ;;
		*_internal.h) echo "check-layers: $file:$line includes \"$target\", another folder's internal header" ;;
		esac
	done
}

# c_library_only FOLDER: FOLDER's system includes are the C library's.
c_library_only() {
	includes "$1" '<' | while IFS=: read -r file line target; do
		case " $C_LIBRARY " in
		*" $target "*) ;;
		*) echo "check-layers: $file:$line includes <$target> ($1/ may include the C library only)" ;;
		esac
	done
}

report=$(
	allowed base base
	c_library_only base
	allowed engine engine
	c_library_only engine
	allowed codec base engine codec
	allowed render base engine render
	allowed db base db
	allowed game base engine codec db game
	allowed http base engine codec http
	allowed deliver base engine codec game deliver
	allowed api base engine codec game render http deliver api
	allowed cmd base engine codec db game render http deliver api
	allowed bench base engine codec db game render http deliver api
	allowed openapi engine codec
)
if [ -n "$report" ]; then
	printf '%s\n' "$report"
	status=1
fi
# No circles between modules, of includes or of calls (the calls from the objects of the
# build directory named by $B, build by default).
python3 scripts/check-cycles.py "${B:-build}" || status=1
exit $status
