#!/bin/sh
# make check-layers: each folder includes only the folders below it (README's source
# layout). Prints every include that breaks the rule and exits 1 when there is one.
#
#   engine/   the C library and engine/ only
#   codec/    engine/, codec/ (and jansson)
#   render/   engine/, render/ (and cairo)
#   db/       db/ (and libpq, OpenSSL)
#   game/     engine/, codec/, db/, game/
#   api/      engine/, codec/, db/, game/, render/, api/
#   cmd/ bench/ openapi/   any library folder (and their own), never tests/
#   tests/    anything
set -eu
cd "$(dirname "$0")/.."

C_LIBRARY="assert.h ctype.h errno.h float.h inttypes.h limits.h math.h stdarg.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h"
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
		done
	done
}

# The engine includes nothing but its own headers and the C library.
engine_system() {
	for file in $(find engine -name '*.[ch]' | sort); do
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*<' "$file" | while IFS= read -r line; do
			target=$(printf '%s\n' "$line" | sed 's/.*<\([^>]*\)>.*/\1/')
			case " $C_LIBRARY " in
			*" $target "*) ;;
			*) echo "check-layers: $file:${line%%:*} includes <$target> (engine/ may include the C library only)" ;;
			esac
		done
	done
}

report=$(
	allowed engine engine
	engine_system
	allowed codec engine codec
	allowed render engine render
	allowed db db
	allowed game engine codec db game
	allowed api engine codec db game render api
	allowed cmd engine codec db game render api
	allowed bench engine codec db game render api
	allowed openapi engine codec
)
if [ -n "$report" ]; then
	printf '%s\n' "$report"
	status=1
fi
exit $status
