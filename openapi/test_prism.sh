#!/bin/bash
# test_prism.sh - proves the contract-test setup works: scripts/prism.sh starts a Prism proxy
# in front of a canned upstream (fake_upstream.py), valid responses pass through unchanged,
# and every kind of contract violation the HTTP tests rely on is turned into a failure.
#
#   openapi/test_prism.sh OPENAPI_JSON     (make test-openapi)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
spec_json=${1:-$root/build/openapi.json}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
upstream_port=$(free_port)
proxy_port=$(free_port)
game=/v1/games/2b4f0c1d9e8a7f61
token=st_6umfXfKm_r5kJP1VrT-1FJors_6ILi8IHn5kxsC7tVO
passed=0
failed=0
upstream_pid=
prism_pid=

cleanup() {
	[ -n "$prism_pid" ] && kill "$prism_pid" 2>/dev/null
	[ -n "$upstream_pid" ] && kill "$upstream_pid" 2>/dev/null
	wait 2>/dev/null
}
trap cleanup EXIT

python3 "$root/openapi/fake_upstream.py" "$upstream_port" "$spec_json" &
upstream_pid=$!
export PRISM_LOG=${TMPDIR:-/tmp}/prism-test-$proxy_port.log
prism_pid=$("$root/scripts/prism.sh" "$proxy_port" "http://127.0.0.1:$upstream_port") || {
	echo "scripts/prism.sh failed"
	exit 1
}
base=http://127.0.0.1:$proxy_port

upstream_count() { curl -s "http://127.0.0.1:$upstream_port/__count" | python3 -c 'import json, sys; print(json.load(sys.stdin)["count"])'; }

# expect NAME STATUS BODY_PATTERN CURL_ARGS...: the proxied answer has this status and its
# body matches the pattern (grep -E).
expect() {
	local name=$1 status=$2 pattern=$3
	shift 3
	local out
	out=$(curl -s -o - -w '\n%{http_code}' "$@")
	local code=${out##*$'\n'}
	local body=${out%$'\n'*}
	if [ "$code" = "$status" ] && grep -Eq -- "$pattern" <<<"$body"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $name: got $code ${body:0:300}"
	fi
}

violation='stoplight.io/prism/errors#VIOLATIONS'
expect "valid health passes" 200 '"status": ?"ok"' "$base/healthz"
expect "a wrong body value is a violation" 500 "$violation" "$base/readyz"
expect "a valid view with an unknown member passes" 200 'future_member' "$base$game" -H "Authorization: Bearer $token"
expect "a missing required ETag is a violation" 500 "$violation" "$base$game/board"
expect "a seat out of range is a violation" 500 "$violation.*victim" "$base$game/actions"
expect "a wrong media type is a violation" 500 "$violation" "$base$game/players"
expect "a valid event log passes" 200 'game_created' "$base$game/moves?after=0&limit=3"
expect "an unlisted problem code is a violation" 500 "$violation" -X POST "$base$game/trades" \
	-H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"give": {"wool": 1}, "want": {"ore": 1}}'
# An undocumented non-2xx status is passed through with only a warning, in the sl-violations
# header: HTTP tests should also fail on that header.
if curl -s -D - -o /dev/null "$base$game/trades" | grep -qi '^sl-violations:.*Unable to match the returned status code'; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL an undocumented status is not flagged in sl-violations"
fi
expect "a documented 404 problem passes" 404 'game_not_found' "$base/v1/games/0000000000000000"
expect "a valid move passes" 201 'dice_rolled' -X POST "$base$game/moves" -H "Authorization: Bearer $token" \
	-H 'Content-Type: application/json' -d '{"type": "roll"}'

before=$(upstream_count)
expect "an unknown member is refused by the proxy" 422 'colour' -X POST "$base$game/moves" \
	-H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"type": "roll", "colour": 1}'
expect "a move without a token is refused by the proxy" 401 '' -X POST "$base$game/moves" \
	-H 'Content-Type: application/json' -d '{"type": "roll"}'
expect "a node out of range is refused by the proxy" 422 'node' -X POST "$base$game/moves" \
	-H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"type": "build_city", "node": 54}'
after=$(upstream_count)
if [ "$before" = "$after" ]; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL refused requests reached the upstream ($before -> $after)"
fi

echo "prism contract proxy: $passed passed, $failed failed"
[ "$failed" = 0 ]
