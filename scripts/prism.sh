#!/bin/bash
# Start a validating proxy for the HTTP contract tests:
#
#   scripts/prism.sh PORT UPSTREAM_URL [PRISM_OPTION...]
#
# runs `prism proxy --errors openapi/openapi.yaml UPSTREAM_URL --port PORT` (Stoplight Prism
# from openapi/node_modules; installed there by `make openapi-deps` when missing) on
# 127.0.0.1, in the background, waits until it listens and prints its PID on stdout. Stop
# it with `kill PID`. Its log goes to $PRISM_LOG (default ${TMPDIR:-/tmp}/prism-PORT.log).
#
# Every request is forwarded to UPSTREAM_URL and every response is checked against the
# spec. With --errors a response that breaks the spec (undocumented 2xx status, wrong media
# type, a body or header that fails its schema) is replaced by a 500 problem whose type ends
# in "#VIOLATIONS" (details in its `validation` member and the sl-violations header), so a
# test sees it fail. An undocumented 4xx/5xx status only gets a warning in the
# sl-violations header (as does every violation): tests should fail on that header too.
# Prism also checks requests: one that breaks the spec (an unknown
# member, a missing token where one is required, a malformed id) is answered by Prism itself
# (422 or 401) and never reaches the server. To send deliberately bad requests through to
# the server and still check its answers, add --validate-request=false (Prism still answers
# a missing token with its own 401, and a body sent as application/json that is not JSON
# with its own 400). Prism reads whole responses before checking them, so the endless
# GET .../stream cannot go through it: test the stream against the server directly.
set -euo pipefail

if [ $# -lt 2 ]; then
	echo "usage: scripts/prism.sh PORT UPSTREAM_URL [PRISM_OPTION...]" >&2
	exit 2
fi
port=$1
upstream=$2
shift 2

root=$(cd "$(dirname "$0")/.." && pwd)
prism="$root/openapi/node_modules/.bin/prism"
if [ ! -x "$prism" ]; then
	make -s -C "$root" openapi-deps >&2
fi
log=${PRISM_LOG:-${TMPDIR:-/tmp}/prism-$port.log}

# Quick refusals before starting anything.
case $port in '' | *[!0-9]*) echo "scripts/prism.sh: bad port: $port" >&2; exit 2 ;; esac
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
	echo "scripts/prism.sh: port $port is already in use" >&2
	exit 1
fi

cd "$root"
NO_UPDATE_NOTIFIER=1 "$prism" proxy --errors --host 127.0.0.1 --port "$port" "$@" \
	openapi/openapi.yaml "$upstream" >"$log" 2>&1 </dev/null &
pid=$!

# Wait (up to 60 s) until it accepts connections; fail early if it died.
i=0
while :; do
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "scripts/prism.sh: prism exited; its log ($log):" >&2
		tail -n 20 "$log" >&2
		exit 1
	fi
	if grep -q "Prism is listening" "$log" 2>/dev/null && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
		break
	fi
	i=$((i + 1))
	if [ "$i" -ge 600 ]; then
		echo "scripts/prism.sh: prism did not listen on port $port within 60 s; log: $log" >&2
		kill "$pid" 2>/dev/null || true
		exit 1
	fi
	sleep 0.1
done
echo "$pid"
