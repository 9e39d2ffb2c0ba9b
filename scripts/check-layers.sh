#!/bin/sh
# make check-layers: each folder includes only the folders below it (README's source
# layout). Prints every include that breaks the rule and exits 1 when there is one.
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

# allowed FOLDER PREFIXES...: every quoted include of FOLDER's files names a file of FOLDER
# itself or of one of PREFIXES (or of its own folder, written without a folder).
allowed() {
	folder=$1
	shift
	for file in $(find "$folder" -name '*.[ch]' | sort); do
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" | while IFS= read -r line; do
			target=$(printf '%s\n' "$line" | sed 's/.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/')
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
				echo "check-layers: $file:${line%%:*} includes \"$target\" ($folder/ may include: $*)"
			fi
			# A folder's internal header (<name>_internal.h) is its own.
			case "$target" in
			*_internal.h)
				case "$target" in
				"$folder"/*) ;;
				*) echo "check-layers: $file:${line%%:*} includes \"$target\", another folder's internal header" ;;
				esac
				;;
			esac
		done
	done
}

# FOLDER includes nothing but its own headers and the C library (and SYSTEM, more system
# headers it may use).
c_library_only() {
	folder=$1
	shift
	for file in $(find "$folder" -name '*.[ch]' | sort); do
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*<' "$file" | while IFS= read -r line; do
			target=$(printf '%s\n' "$line" | sed 's/.*<\([^>]*\)>.*/\1/')
			case " $C_LIBRARY $* " in
			*" $target "*) ;;
			*) echo "check-layers: $file:${line%%:*} includes <$target> ($folder/ may include the C library only)" ;;
			esac
		done
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
exit $status
