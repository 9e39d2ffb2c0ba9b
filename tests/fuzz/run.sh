#!/bin/sh
# Run the libFuzzer programs of tests/fuzz/fuzz.mk.
#
#   run.sh fuzz DIR SECONDS TARGET...   fuzz each target for SECONDS on a scratch copy of its
#                                       corpus; print exec/s and executions per target
#   run.sh test DIR SECONDS TARGET...   run every corpus file and saved crash of each target
#                                       once, then fuzz it for SECONDS; fail on any crash
#
# DIR is the build directory of the programs (build/fuzz). Runs work in DIR/run/<target>/
# (a fresh copy of tests/fuzz/corpus/<target>/ each time, so the committed corpus never
# grows) and leave crashing inputs in DIR/artifacts/<target>/.
set -eu

mode=$1 dir=$2 seconds=$3
shift 3
here=tests/fuzz

# Per-target options: the engine's inputs are long sequences of choices.
options_for() {
	case $1 in
	engine) echo "-max_len=8192 -timeout=20" ;;
	codec_replay | import) echo "-max_len=65536 -timeout=10" ;;
	*) echo "-max_len=4096 -timeout=10" ;;
	esac
}

failed=""
summary=""
for target in "$@"; do
	program=$dir/fuzz_$target
	work=$dir/run/$target
	artifacts=$dir/artifacts/$target
	rm -rf "$work"
	mkdir -p "$work/corpus" "$artifacts"
	if [ -d "$here/corpus/$target" ]; then
		cp "$here/corpus/$target"/* "$work/corpus/" 2>/dev/null || true
	fi
	log=$work/log
	status=0
	if [ "$mode" = test ]; then
		# Regression inputs first, each run once: the corpus and every saved crash.
		inputs=$(find "$here/corpus/$target" "$here/crashes/$target" -type f 2>/dev/null | sort)
		count=$(printf '%s\n' "$inputs" | grep -c . || true)
		if [ "$count" -gt 0 ]; then
			# shellcheck disable=SC2086
			if ! "$program" $(options_for "$target") $inputs >"$work/regress.log" 2>&1; then
				echo "== fuzz_$target: a regression input fails (log: $work/regress.log)"
				tail -n 30 "$work/regress.log"
				failed="$failed $target"
				continue
			fi
		fi
		echo "== fuzz_$target: $count regression inputs pass"
	fi
	# shellcheck disable=SC2086
	"$program" $(options_for "$target") -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$artifacts/" "$work/corpus" >"$log" 2>&1 || status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	corpus=$(ls "$work/corpus" | wc -l)
	line=$(printf 'fuzz_%-14s %8s exec/s %12s executions in %ss, corpus %s files' "$target" "${speed:-?}" \
		"${runs:-?}" "$seconds" "$corpus")
	if [ "$status" != 0 ]; then
		line="$line: CRASH (log: $log, input in $artifacts/)"
		failed="$failed $target"
		grep -m 1 -A 12 -E '^(==[0-9]+==ERROR|fuzz: |.*runtime error)' "$log" || tail -n 30 "$log"
	fi
	echo "== $line"
	summary="$summary$line
"
done
printf '\nfuzz summary:\n%s' "$summary"
if [ -n "$failed" ]; then
	echo "FAILED:$failed"
	exit 1
fi
