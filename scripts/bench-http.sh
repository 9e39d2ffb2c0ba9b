#!/bin/sh
# The body of `make bench-http` (run under scripts/with-postgres.sh, so DATABASE_URL is a
# fresh database): start the server, play 16 concurrent games through the API for
# BENCH_SECONDS (default 20) with the load generator (bench/http_bench.c) twice, first
# polling GET .../actions before every move, then as bots do, one request per move with
# GET .../actions?wait between turns; time complete games of four bot seats
# (BENCH_BOT_GAMES, default 10); stop the server; measure pgbench's one-row insert at the
# same concurrency on the same cluster (BENCH_PGBENCH_SECONDS, default 10) with its client's
# CPU; print them all, the cluster's fsync and synchronous_commit, and the ratio of durable
# moves/s to pgbench's tps for each loop. The generator prints its own CPU per move: when
# it is far below the server's, the ratio measures the server.
#
# With BENCH_MODE=bots see below. With BENCH_MODE=haproxy (`make bench-http BENCH_MODE=haproxy`, or `make bench-http-haproxy`)
# it measures instead the moves/s of the same load through HAProxy in front of 1, 2 and 3
# servers on the one database (BENCH_SECONDS each, default 10), and directly against one
# server for comparison. The HAProxy configuration is the recipe of README.md ("Running
# several servers"), on ephemeral ports of 127.0.0.1.
#
#   scripts/bench-http.sh SERVER HTTP_BENCH
set -eu
server=$1
bench=$2
seconds=${BENCH_SECONDS:-20}
clients=${BENCH_CLIENTS:-16}

# start_server OUT LOG: start one server in the background (no rate limits, games of bots
# allowed, no per-address quota of held requests: the bot loop holds one a seat), its stdout to OUT and stderr to LOG; sets $pid and $port, or exits when it does
# not say where it serves within 10 s.
start_server() {
	PORT=0 RATE_LIMIT_IP=0 RATE_LIMIT_TOKEN=0 CREATE_RATE_IP=0 ALL_BOT_GAMES=1 MAX_WAITING_PER_IP=0 THREADS=${BENCH_SERVER_THREADS:-4} \
		"$server" >"$1" 2>"$2" &
	pid=$!
	port=""
	for _ in $(seq 1 100); do
		port=$(sed -n 's/.*serving on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$1")
		[ -n "$port" ] && return 0
		sleep 0.1
	done
	echo "bench-http: a server did not start" >&2
	cat "$2" >&2
	exit 1
}

# BENCH_MODE=bots (`make bench-http-bots`): BENCH_BOT_LOAD_GAMES (default 200) concurrent
# games of one person (the generator's bot loop) and three of the server's bots at
# BENCH_BOT_LEVEL (default hard) for BENCH_SECONDS (default 60): the person's moves/s and
# POST latency, and how late the server's bots stored their moves (its /metrics histogram).
if [ "${BENCH_MODE:-}" = bots ]; then
	log=$(mktemp)
	out=$(mktemp)
	pid=""
	trap 'kill $pid 2>/dev/null || true; rm -f "$log" "$out"' EXIT
	start_server "$out" "$log"
	games=${BENCH_BOT_LOAD_GAMES:-200}
	level=${BENCH_BOT_LEVEL:-hard}
	echo "bench http: $games games, each 1 person (the generator) and 3 $level bots of the server, ${BENCH_SECONDS:-60} s, server THREADS=${BENCH_SERVER_THREADS:-4}"
	"$bench" "http://127.0.0.1:$port" --games "$games" --seconds "${BENCH_SECONDS:-60}" --mode bot --humans 1 \
		--bot-level "$level" | sed '1s/^bench http: /bench http: the person: /'
	kill -TERM $pid
	wait $pid || true
	exit 0
fi

if [ "${BENCH_MODE:-}" = haproxy ]; then
	haproxy=$(command -v haproxy || ls /usr/sbin/haproxy 2>/dev/null || true)
	[ -n "$haproxy" ] || { echo "bench-http: haproxy is not installed (apt-get install haproxy)" >&2; exit 1; }
	seconds=${BENCH_SECONDS:-10}
	work=$(mktemp -d)
	pids=""
	trap 'for p in $pids; do kill $p 2>/dev/null || true; done; rm -rf "$work"' EXIT
	ports=""
	for n in 1 2 3; do
		start_server "$work/out$n" "$work/log$n"
		pids="$pids $pid"
		ports="$ports $port"
	done
	first=$(echo $ports | cut -d' ' -f1)
	printf 'bench http: directly to 1 server: '
	"$bench" "http://127.0.0.1:$first" --games "$clients" --seconds "$seconds" | head -n 1 | sed 's/^bench http: //'
	for n in 1 2 3; do
		front=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		{
			printf 'global\n\tmaxconn 4000\n'
			printf 'defaults\n\tmode http\n\ttimeout connect 2s\n\ttimeout client 90s\n\ttimeout server 90s\n'
			printf '\ttimeout http-request 10s\n\tretries 3\n\toption redispatch 1\n'
			printf 'frontend catan\n\tbind 127.0.0.1:%s\n\tdefault_backend catan_servers\n' "$front"
			printf 'backend catan_servers\n\tbalance roundrobin\n\toption httpchk GET /healthz\n'
			printf '\thttp-check expect status 200\n\tdefault-server inter 1s fall 2 rise 2\n'
			i=0
			for port in $(echo $ports | cut -d' ' -f1-$n); do
				i=$((i + 1))
				printf '\tserver catan%d 127.0.0.1:%s check\n' "$i" "$port"
			done
		} >"$work/haproxy$n.cfg"
		"$haproxy" -db -f "$work/haproxy$n.cfg" >"$work/haproxy$n.log" 2>&1 &
		balancer=$!
		pids="$pids $balancer"
		ready=""
		for _ in $(seq 1 100); do
			if python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' \
				"http://127.0.0.1:$front/healthz" 2>/dev/null; then
				ready=1
				break
			fi
			sleep 0.1
		done
		[ -n "$ready" ] || { echo "bench-http: haproxy did not start" >&2; cat "$work/haproxy$n.log" >&2; exit 1; }
		printf 'bench http: through HAProxy to %d server(s): ' "$n"
		"$bench" "http://127.0.0.1:$front" --games "$clients" --seconds "$seconds" | head -n 1 | sed 's/^bench http: //'
		kill $balancer
		wait $balancer 2>/dev/null || true
	done
	echo "bench http: $(nproc) CPUs shared by the servers, HAProxy, PostgreSQL and the load generator"
	exit 0
fi

log=$(mktemp)
out=$(mktemp)
poll=$(mktemp)
bot=$(mktemp)
pid=""
trap 'kill $pid 2>/dev/null || true; rm -f "$log" "$out" "$poll" "$bot"' EXIT
start_server "$out" "$log"

# server_cpu: the server's CPU so far, and postgres_cpu: the cluster's (the postmaster and
# its children: the server's connections are kept, so none ends during a run; empty when
# the cluster is not the throwaway one of scripts/with-postgres.sh), in clock ticks of
# /proc/PID/stat (user + system; the names in field 2 have no spaces).
server_cpu() {
	awk '{ print $14 + $15 }' "/proc/$pid/stat"
}
postgres_cpu() {
	postmaster=$(head -n 1 "${CATAN_TEST_PG_DIR:-/nonexistent}/data/postmaster.pid" 2>/dev/null || true)
	[ -n "$postmaster" ] || return 0
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v p="$postmaster" '$1 == p || $4 == p { t += $14 + $15 } END { print t + 0 }'
}

# run_generator MODE FILE: the generator's figures, printed and kept in FILE, and the
# server's and PostgreSQL's CPU per move over the same run.
run_generator() {
	status=0
	server_before=$(server_cpu)
	postgres_before=$(postgres_cpu)
	"$bench" "http://127.0.0.1:$port" --games "$clients" --seconds "$seconds" --mode "$1" >"$2" || status=$?
	server_after=$(server_cpu)
	postgres_after=$(postgres_cpu)
	sed "1s/\$/ (loop: $1)/" "$2"
	[ "$status" -eq 0 ] || exit "$status"
	moves=$(sed -n 's/^bench http: \([0-9]*\) moves and.*/\1/p' "$2")
	awk -v sb="$server_before" -v sa="$server_after" -v pb="$postgres_before" -v pa="$postgres_after" \
		-v m="$moves" -v hz="$(getconf CLK_TCK)" 'BEGIN {
		if (m + 0 == 0) exit
		printf "bench http: the server'"'"'s CPU %.0f us a move", (sa - sb) * 1e6 / hz / m
		if (pb != "") printf ", PostgreSQL'"'"'s %.0f us", (pa - pb) * 1e6 / hz / m
		printf " (/proc/PID/stat)\n" }'
}
run_generator poll "$poll"
run_generator bot "$bot"

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
# transaction, prepared statements, the same number of clients, its client's CPU measured
# as the generator's is (getrusage of the child).
pgbench=$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -n 1)
psql "$DATABASE_URL" -qc "CREATE TABLE IF NOT EXISTS bench_rows (game_id bigint, seq int, type smallint, payload json, created_at timestamptz DEFAULT now())" >/dev/null
settings=$(psql "$DATABASE_URL" -Atc "SELECT 'fsync=' || current_setting('fsync') || ', synchronous_commit=' || current_setting('synchronous_commit')")
script=$(mktemp)
cat >"$script" <<'SQL'
\set g random(1, 1000000000)
INSERT INTO bench_rows (game_id, seq, type, payload) VALUES (:g, :client_id, 5, '{"type":"dice_rolled","seat":1,"dice":[3,4],"total":7}');
SQL
measured=$(python3 - "$pgbench" -n -M prepared -c "$clients" -j 2 -T "${BENCH_PGBENCH_SECONDS:-10}" -f "$script" "$DATABASE_URL" <<'PY'
import re, resource, subprocess, sys
run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
tps = re.search(r"^tps = ([0-9.]+)", run.stdout, re.M)
done = re.search(r"^number of transactions actually processed: ([0-9]+)", run.stdout, re.M)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (usage.ru_utime + usage.ru_stime) * 1e6 / int(done.group(1)) if done and int(done.group(1)) else 0
print("%s %.1f" % ("%.0f" % float(tps.group(1)) if tps else "?", cpu))
PY
)
tps=${measured% *}
pgbench_cpu=${measured#* }
echo "bench http: pgbench, $clients clients (-j 2, -M prepared), same cluster ($settings): ${tps:-?} tps, its client's CPU $pgbench_cpu us a transaction; script:"
sed 's/^/bench http:   /' "$script"
rm -f "$script"
for loop in poll bot; do
	file=$poll
	[ "$loop" = bot ] && file=$bot
	moves=$(sed -n '1s/^bench http: \([0-9]*\) moves\/s.*/\1/p' "$file")
	cpu=$(sed -n "s/.*load generator's own CPU \([0-9.]*\) us.*/\1/p" "$file")
	echo "bench http: ratio ($loop loop): $moves durable moves/s / ${tps:-?} pgbench tps = $(awk -v m="$moves" -v t="$tps" 'BEGIN { if (t + 0 > 0) printf "%.2f", m / t; else printf "?" }'), the generator's CPU $cpu us a move"
done
