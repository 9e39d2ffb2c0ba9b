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
flags GMIME_CFLAGS "--cflags gmime-3.0" "-I/usr/include/gmime-3.0 -I/usr/include/glib-2.0 -I/usr/lib/x86_64-linux-gnu/glib-2.0/include"
flags GMIME_LIBS "--libs gmime-3.0" "-lgmime-3.0 -lgio-2.0 -lgobject-2.0 -lglib-2.0"
