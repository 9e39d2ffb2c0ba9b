#!/bin/sh
# The body of `make bench-http` (run under scripts/with-postgres.sh, so DATABASE_URL is a
# fresh database): start the server, play 16 concurrent games through the API for
# BENCH_SECONDS (default 20), time complete games of four bot seats (BENCH_BOT_GAMES,
# default 10), stop the server, then measure pgbench's one-row insert at the same
# concurrency on the same database, and print them all.
#
#   scripts/bench-http.sh SERVER HTTP_BENCH
set -eu
server=$1
bench=$2
seconds=${BENCH_SECONDS:-20}
clients=${BENCH_CLIENTS:-16}

log=$(mktemp)
out=$(mktemp)
PORT=0 RATE_LIMIT_IP=0 RATE_LIMIT_TOKEN=0 THREADS=${BENCH_SERVER_THREADS:-4} "$server" >"$out" 2>"$log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$log" "$out"' EXIT
port=""
for _ in $(seq 1 100); do
	port=$(sed -n 's/.*serving on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$out")
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || { echo "bench-http: the server did not start" >&2; cat "$log" >&2; exit 1; }

"$bench" "http://127.0.0.1:$port" --games "$clients" --seconds "$seconds"

# Bot seats: BENCH_BOT_GAMES (default 10) games of four bots, one after another on the same
# server, each timed from the POST that creates it until the log shows its winner (long-
# polling GET .../moves, so the finish is seen within milliseconds).
python3 - "http://127.0.0.1:$port" "${BENCH_BOT_GAMES:-10}" <<'PY'
import json, statistics, sys, time, urllib.request

base, games = sys.argv[1], int(sys.argv[2])
body = json.dumps({"players": [{"name": "Bot %d" % (s + 1), "bot": True} for s in range(4)],
                   "options": {"layout": "random"}}).encode()
took = []
for _ in range(games):
    started = time.monotonic()
    request = urllib.request.Request(base + "/v1/games", data=body, headers={"Content-Type": "application/json"})
    game = json.load(urllib.request.urlopen(request))["id"]
    after, won = 0, False
    while not won:
        if time.monotonic() - started > 300:
            sys.exit("bench http: 4-bot game %s did not finish in 300 s" % game)
        page = json.load(urllib.request.urlopen("%s/v1/games/%s/moves?after=%d&wait=30&limit=1000" % (base, game, after)))
        won = any(event["type"] == "game_won" for event in page["events"])
        after = max([after] + [event["version"] for event in page["events"]])
    took.append((time.monotonic() - started) * 1000)
print("bench http: 4-bot game %.0f ms from creation to winner (median of %d)" % (statistics.median(took), games))
PY
kill -TERM $pid
wait $pid || true

# pgbench: one comparable row (a game id, a sequence number, a small JSON payload) per
# transaction, prepared statements, the same number of clients.
pgbench=$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -n 1)
psql "$DATABASE_URL" -qc "CREATE TABLE IF NOT EXISTS bench_rows (game_id bigint, seq int, type smallint, payload jsonb, created_at timestamptz DEFAULT now())" >/dev/null
script=$(mktemp)
cat >"$script" <<'SQL'
\set g random(1, 1000000000)
INSERT INTO bench_rows (game_id, seq, type, payload) VALUES (:g, :client_id, 5, '{"type":"dice_rolled","seat":1,"dice":[3,4],"total":7}');
SQL
tps=$("$pgbench" -n -M prepared -c "$clients" -j 2 -T "${BENCH_PGBENCH_SECONDS:-10}" -f "$script" "$DATABASE_URL" 2>/dev/null |
	sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -n 1)
rm -f "$script"
echo "bench http: pgbench one-row insert, $clients clients, same database: ${tps:-?} tps"
