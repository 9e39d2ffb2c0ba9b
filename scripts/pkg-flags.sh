#!/bin/sh
# Print the Makefile assignments of the packages' compiler and linker flags (pkg-config, or
# Debian's usual values when a .pc file is missing). The Makefile writes them to
# build/.deps.mk after scripts/deps.sh has installed the packages, and includes that file.
set -eu

flags() {
	# flags VARIABLE "pkg-config arguments" "fallback"
	value=$(pkg-config $2 2>/dev/null) || value=$3
	printf '%s := %s\n' "$1" "$value"
}

flags PQ_CFLAGS "--cflags libpq" "-I/usr/include/postgresql"
flags RENDER_CFLAGS "--cflags cairo fontconfig libpng" ""
flags RENDER_LIBS "--libs cairo fontconfig libpng" "-lcairo -lfontconfig -lpng16"
flags CHECK_LIBS "--libs check" "-lcheck -lsubunit -lm -lrt -lpthread"
flags ICU_LIBS "--libs icu-uc" "-licuuc -licudata"
