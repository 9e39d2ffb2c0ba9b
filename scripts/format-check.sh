#!/bin/sh
# format-check: every C file git tracks (outside web/ and node_modules, and not the generated
# ones, whose first line says "do not edit") is as clang-format writes it under the
# repository's .clang-format. Prints each file that differs with the
# first lines of its difference, and fails; `scripts/format-check.sh --fix` rewrites them.
# Run by `make test` (make format-check); clang-format 14 is Debian 12's (scripts/deps.sh).
set -eu
cd "$(dirname "$0")/.."
fix=0
[ "${1:-}" = "--fix" ] && fix=1
command -v clang-format >/dev/null 2>&1 || { echo "format-check: clang-format is not installed (scripts/deps.sh)" >&2; exit 1; }
scratch=$(mktemp)
trap 'rm -f "$scratch"' EXIT INT TERM
bad=0
for file in $(git ls-files '*.c' '*.h' | grep -v -e '^web/' -e 'node_modules/'); do
	[ -f "$file" ] || continue
	# A generated file is as its generator writes it (a test compares them): not formatted.
	head -n 1 "$file" | grep -q 'do not edit' && continue
	clang-format --style=file "$file" > "$scratch"
	if ! cmp -s "$file" "$scratch"; then
		if [ "$fix" = 1 ]; then
			cat "$scratch" > "$file"
		else
			bad=$((bad + 1))
			echo "format-check: $file is not as clang-format writes it:"
			diff -u "$file" "$scratch" | sed -n '3,12p'
		fi
	fi
done
if [ "$bad" -gt 0 ]; then
	echo "format-check: $bad file(s) differ; scripts/format-check.sh --fix rewrites them" >&2
	exit 1
fi
