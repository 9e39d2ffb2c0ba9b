#!/bin/sh
# Print each line of FILE as a C string literal with its newline, one per output line
# ("\t\"...\\n\"\n"), for the generators that embed files into the binary
# (scripts/embed.sh, db/gen_migrations.sh). Escapes backslash, double quote, tab and ?
# (no trigraphs under -std=c11), character by character: gsub's replacement strings
# differ between awks. Portable sh + awk.
set -eu
[ $# -eq 1 ] || { echo "usage: scripts/c_lines.sh FILE" >&2; exit 2; }
awk '{
	out = ""
	for (i = 1; i <= length($0); i++) {
		c = substr($0, i, 1)
		if (c == "\\") out = out "\\\\"
		else if (c == "\"") out = out "\\\""
		else if (c == "?") out = out "\\?"
		else if (c == "\t") out = out "\\t"
		else out = out c
	}
	printf "\t\"%s\\n\"\n", out
}' "$1"
