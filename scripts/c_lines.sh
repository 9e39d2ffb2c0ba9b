#!/bin/sh
# Print each line of FILE as C string literals with its newline ("\t\"...\\n\"\n"), for the
# generators that embed files into the binary (scripts/embed.sh, scripts/embed_web.sh,
# db/gen_migrations.sh). A line longer than 512 characters is written as several literals,
# the newline after the last, so that a minified script (Redoc's: lines of 700,000
# characters) costs linear time. Escapes backslash, double quote, tab and ? (no trigraphs
# under -std=c11), character by character: gsub's replacement strings differ between
# awks. Portable sh + awk.
set -eu
[ $# -eq 1 ] || { echo "usage: scripts/c_lines.sh FILE" >&2; exit 2; }
awk '{
	line = $0
	n = length(line)
	for (start = 1; ; start += 512) {
		piece = substr(line, start, 512)
		out = ""
		for (i = 1; i <= length(piece); i++) {
			c = substr(piece, i, 1)
			if (c == "\\") out = out "\\\\"
			else if (c == "\"") out = out "\\\""
			else if (c == "?") out = out "\\?"
			else if (c == "\t") out = out "\\t"
			else out = out c
		}
		if (start + 512 > n) {
			printf "\t\"%s\\n\"\n", out
			break
		}
		printf "\t\"%s\"\n", out
	}
}' "$1"
