#!/bin/sh
# A PostgreSQL high-availability cluster on this machine, for the HA tests (make test-ha):
# one etcd (the DCS) and three PostgreSQL 15 nodes under Patroni, on free ports of 127.0.0.1,
# everything in one throwaway directory. The topology of docker/compose.ha.yaml, without
# Docker.
#
#   scripts/ha/cluster.sh start DIR        make and start it; waits for a leader and a
#                                          synchronous standby; creates the database catan;
#                                          writes DIR/env (DATABASE_URL, HA_NODES ...)
#   scripts/ha/cluster.sh stop DIR         stop everything (SIGKILL to each process group)
#   scripts/ha/cluster.sh leader DIR       print the leader's node name (node1..node3)
#   scripts/ha/cluster.sh healthy DIR [S [NODE]]  wait (at most S s, default 60) until
#                                          there is a leader (other than NODE) and a
#                                          synchronous standby
#   scripts/ha/cluster.sh kill-postmaster DIR   kill -9 the leader's postmaster only:
#                                          Patroni keeps the lock and recovers it
#   scripts/ha/cluster.sh kill-node DIR    the leader's node lost for good: its Patroni and
#                                          its PostgreSQL killed with -9, not restarted
#   scripts/ha/cluster.sh revive DIR NODE  start a lost node's Patroni again (it rejoins as
#                                          a standby, rewound with pg_rewind when needed)
#   scripts/ha/cluster.sh switchover DIR   patronictl switchover to the synchronous standby
#   scripts/ha/cluster.sh partition DIR    cut the leader's node off the network (etcd, the
#                                          other nodes, the servers); prints its name
#   scripts/ha/cluster.sh heal DIR NODE    connect it again
#   scripts/ha/cluster.sh rejoin DIR NODE [S]  wait until NODE streams on the leader's
#                                          timeline; after S s (default 30) reinit it
#   scripts/ha/cluster.sh list DIR         patronictl list
#
# Networks: as root, when network namespaces work (and HA_NETNS is not 0), each node runs in
# a namespace of its own, joined by a veth pair to a bridge in this one, on a private /24
# (10.250.N.0: the bridge .1, where etcd also listens; the nodes .2 .. .4): a partition is
# the node's veth set down, so its packets go nowhere, as on a cut cable (there is no
# iptables here to drop them). Otherwise every node listens on 127.0.0.1 and `partition`
# fails (DIR/env says HA_NETNS=0).
#
# Settings are those measured in issue 25: etcd3, synchronous_mode + synchronous_mode_strict
# (a commit returns only once a standby has flushed it, and only that standby may be
# promoted), ttl 10, loop_wait 2, retry_timeout 4, use_pg_rewind, use_slots, wal_log_hints,
# wal_retrieve_retry_interval 500ms, no watchdog (no device here). Every process is started
# in a session of its own (setsid), so a node is stopped by signalling its process groups:
# Patroni's, and its postmaster's (Patroni starts the postmaster in a new session too, so
# that PostgreSQL outlives a restart of Patroni). As root, PostgreSQL and Patroni run as
# the postgres user (initdb refuses root).
set -eu

usage() {
	echo "usage: scripts/ha/cluster.sh start|stop|leader|healthy|kill-postmaster|kill-node|revive|switchover|partition|heal|rejoin|list DIR" >&2
	exit 2
}
[ $# -ge 2 ] || usage
command=$1
dir=$2
scope=catan-ha

# PostgreSQL 15 (the version measured under Patroni 3.0.2) when installed, else as
# scripts/pg.sh finds it; the nodes' owner likewise (scripts/pg-common.sh).
. "$(cd "$(dirname "$0")/.." && pwd)/pg-common.sh"
bindir=$(pg_find_bindir initdb /usr/lib/postgresql/15/bin)
[ -n "$bindir" ] || { echo "cluster.sh: PostgreSQL server programs not found" >&2; exit 1; }
for program in patroni patronictl etcd etcdctl; do
	command -v $program >/dev/null 2>&1 ||
		{ echo "cluster.sh: $program not found (apt-get install patroni etcd-server etcd-client)" >&2; exit 1; }
done

pg_set_owner
owner=$pg_owner

# n free TCP ports of 127.0.0.1 (bound and released at once: a race with other programs is
# possible but unlikely on ephemeral ports).
free_ports() {
	python3 -c '
import socket, sys
sockets = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); sockets.append(s)
print(" ".join(str(s.getsockname()[1]) for s in sockets))' "$1"
}

# The network: namespaces when possible (see above). Names carry the cluster's own id, so
# two clusters do not collide.
net_setup() {
	netns=0
	if [ "${HA_NETNS:-1}" != 0 ] && [ "$(id -u)" = 0 ] && command -v ip >/dev/null 2>&1; then
		id=$(od -An -N2 -tx2 /dev/urandom | tr -d ' ')
		subnet=10.250.$(($(printf '%d' "0x$id") % 250))
		bridge=cha$id
		if ip link add "$bridge" type bridge 2>/dev/null; then
			netns=1
			echo "$id $subnet" >"$dir/net"
			ip addr add "$subnet.1/24" dev "$bridge"
			ip link set "$bridge" up
			n=2
			for node in node1 node2 node3; do
				ip netns add "catan-ha-$id-$node"
				ip link add "cha${id}h$n" type veth peer name "cha${id}n$n"
				ip link set "cha${id}n$n" netns "catan-ha-$id-$node"
				ip link set "cha${id}h$n" master "$bridge" up
				ip -n "catan-ha-$id-$node" addr add "$subnet.$n/24" dev "cha${id}n$n"
				ip -n "catan-ha-$id-$node" link set "cha${id}n$n" up
				ip -n "catan-ha-$id-$node" link set lo up
				echo "$subnet.$n" >"$dir/$node/address"
				n=$((n + 1))
			done
		fi
	fi
	if [ $netns = 0 ]; then
		for node in node1 node2 node3; do echo 127.0.0.1 >"$dir/$node/address"; done
	fi
}

net_teardown() {
	[ -f "$dir/net" ] || return 0
	read -r id subnet <"$dir/net"
	n=2
	for node in node1 node2 node3; do
		ip link del "cha${id}h$n" 2>/dev/null || true
		ip netns del "catan-ha-$id-$node" 2>/dev/null || true
		n=$((n + 1))
	done
	ip link del "cha$id" 2>/dev/null || true
	rm -f "$dir/net"
}

# The host-side veth of a node (namespaces only).
node_link() {
	read -r id subnet <"$dir/net"
	case $1 in node1) echo "cha${id}h2" ;; node2) echo "cha${id}h3" ;; node3) echo "cha${id}h4" ;; esac
}

ctl() {
	patronictl -c "$dir/node1/patroni.yml" "$@"
}

# The leader's name from Patroni's view in etcd, "" when there is none.
leader() {
	ctl list -f json 2>/dev/null | python3 -c '
import json, sys
try:
    members = json.load(sys.stdin)
except Exception:
    sys.exit(0)
for m in members:
    if m.get("Role") == "Leader" and m.get("State") == "running":
        print(m["Member"])' || true
}

# 0 when a leader runs and a synchronous standby streams.
healthy_now() {
	ctl list -f json 2>/dev/null | python3 -c '
import json, sys
try:
    members = json.load(sys.stdin)
except Exception:
    sys.exit(1)
roles = [(m.get("Role"), m.get("State")) for m in members]
leaders = [m["Member"] for m in members if m.get("Role") == "Leader" and m.get("State") == "running"]
ok = any(l != sys.argv[1] for l in leaders) and any(r == "Sync Standby" and s in ("streaming", "running") for r, s in roles)
sys.exit(0 if ok else 1)' "${1:-}"
}

# wait_healthy LIMIT [NOT_NODE]: a leader other than NOT_NODE (the node just lost).
wait_healthy() {
	limit=$1
	until=$(($(date +%s) + limit))
	while ! healthy_now "${2:-}"; do
		[ "$(date +%s)" -le $until ] || { echo "cluster.sh: no leader with a synchronous standby after ${limit} s" >&2; ctl list >&2 || true; return 1; }
		sleep 0.5
	done
}

# 0 when member $1 runs as a standby on the leader's timeline.
rejoined_now() {
	ctl list -f json 2>/dev/null | python3 -c '
import json, sys
try:
    members = json.load(sys.stdin)
except Exception:
    sys.exit(1)
leader = [m for m in members if m.get("Role") == "Leader"]
me = [m for m in members if m.get("Member") == sys.argv[1]]
ok = leader and me and me[0].get("State") in ("running", "streaming") and me[0].get("TL") == leader[0].get("TL")
sys.exit(0 if ok else 1)' "$1"
}

# A node back after a fault rejoins as a standby, rewound by Patroni when its history
# forked. When it has not within S s (a primary killed mid-flight can leave a fork Patroni
# does not rewind by itself: "requested starting point ... is not in this server's
# history"), it is made again from the leader (patronictl reinit), as an operator would.
rejoin() {
	node=$1 limit=$2
	until=$(($(date +%s) + limit))
	while ! rejoined_now "$node"; do
		if [ "$(date +%s)" -gt $until ]; then
			echo "cluster.sh: $node did not rejoin within ${limit} s: reinit" >&2
			ctl reinit --force "$scope" "$node" >"$dir/$node/reinit.log" 2>&1 || { cat "$dir/$node/reinit.log" >&2; return 1; }
			until=$(($(date +%s) + 120))
			while ! rejoined_now "$node"; do
				[ "$(date +%s)" -le $until ] || { echo "cluster.sh: $node did not rejoin after reinit" >&2; ctl list >&2; return 1; }
				sleep 1
			done
			return 0
		fi
		sleep 1
	done
}

postmaster_pid() {
	head -n 1 "$dir/$1/data/postmaster.pid" 2>/dev/null || true
}

# SIGKILL to the process group of pid $1 (the group leader: each process is started by setsid).
kill_group() {
	case ${1:-} in
	'' | *[!0-9]*) return 0 ;;
	esac
	kill -9 "-$1" 2>/dev/null || kill -9 "$1" 2>/dev/null || true
}

start_etcd() {
	clients=http://127.0.0.1:$etcd_client
	[ ! -f "$dir/net" ] || clients="$clients,http://$(cut -d' ' -f2 "$dir/net").1:$etcd_client"
	setsid etcd --name etcd --data-dir "$dir/etcd" \
		--listen-client-urls "$clients" --advertise-client-urls "$clients" \
		--listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
		--initial-cluster "etcd=http://127.0.0.1:$etcd_peer" --enable-v2=false \
		>"$dir/etcd.log" 2>&1 &
	echo $! >"$dir/etcd.pid"
}

start_node() {
	node=$1
	if [ -f "$dir/net" ]; then
		read -r id subnet <"$dir/net"
		setsid ip netns exec "catan-ha-$id-$node" runuser -u "$owner" -- patroni "$dir/$node/patroni.yml" \
			>>"$dir/$node/patroni.log" 2>&1 &
	else
		setsid runuser -u "$owner" -- patroni "$dir/$node/patroni.yml" >>"$dir/$node/patroni.log" 2>&1 &
	fi
	echo $! >"$dir/$node/patroni.pid"
}

write_node_config() {
	node=$1 pg_port=$2 rest_port=$3
	address=$(cat "$dir/$node/address")
	etcd_host=127.0.0.1
	[ ! -f "$dir/net" ] || etcd_host=$(cut -d' ' -f2 "$dir/net").1
	cat >"$dir/$node/patroni.yml" <<YAML
scope: $scope
name: $node
log:
  level: WARNING
restapi:
  listen: $address:$rest_port
  connect_address: $address:$rest_port
etcd3:
  hosts: $etcd_host:$etcd_client
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 64MB
        wal_retrieve_retry_interval: 500ms
        synchronous_commit: 'on'
  initdb:
  - encoding: UTF8
  - locale: C
postgresql:
  listen: $address:$pg_port
  connect_address: $address:$pg_port
  data_dir: $dir/$node/data
  bin_dir: $bindir
  pgpass: $dir/$node/pgpass
  authentication:
    superuser: {username: $owner}
    replication: {username: $owner}
    rewind: {username: $owner}
  pg_hba:
  - local all all trust
  - host all all $address/24 trust
  - local replication all trust
  - host replication all $address/24 trust
  parameters:
    unix_socket_directories: $dir/$node
    shared_buffers: 32MB
    max_connections: 60
    fsync: 'on'
watchdog:
  mode: 'off'
YAML
	echo "$pg_port" >"$dir/$node/port"
}

case $command in
start)
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	set -- $(free_ports 8)
	etcd_client=$1 etcd_peer=$2
	mkdir -p "$dir/node1" "$dir/node2" "$dir/node3"
	net_setup
	write_node_config node1 $3 $4
	write_node_config node2 $5 $6
	write_node_config node3 $7 $8
	[ "$owner" = "$(id -un)" ] || chown -R "$owner": "$dir"
	chmod 700 "$dir"
	start_etcd
	i=0
	until etcdctl --endpoints "http://127.0.0.1:$etcd_client" endpoint health >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -le 100 ] || { echo "cluster.sh: etcd did not start" >&2; cat "$dir/etcd.log" >&2; exit 1; }
		sleep 0.1
	done
	# The first node bootstraps alone, so that it is the one that runs initdb; the others
	# then copy it with pg_basebackup.
	start_node node1
	i=0
	until [ -n "$(leader)" ]; do
		i=$((i + 1))
		[ $i -le 120 ] || { echo "cluster.sh: node1 did not become the leader" >&2; cat "$dir/node1/patroni.log" >&2; exit 1; }
		sleep 0.5
	done
	start_node node2
	start_node node3
	wait_healthy 90
	as_owner "$bindir/psql" -h "$dir/node1" -p "$3" -d postgres -qAt -c "CREATE DATABASE catan" >/dev/null
	{
		echo "HA_DIR='$dir'"
		echo "HA_NODES='node1 node2 node3'"
		echo "HA_PORTS='$3 $5 $7'"
		echo "HA_NETNS=$netns"
		echo "DATABASE_URL='host=$(cat "$dir/node1/address"),$(cat "$dir/node2/address"),$(cat "$dir/node3/address")\
 port=$3,$5,$7 user=$owner dbname=catan target_session_attrs=read-write connect_timeout=2'"
	} >"$dir/env"
	;;
stop)
	[ -d "$dir" ] || exit 0
	for node in node1 node2 node3; do
		kill_group "$(cat "$dir/$node/patroni.pid" 2>/dev/null || true)"
		kill_group "$(postmaster_pid $node)"
	done
	kill_group "$(cat "$dir/etcd.pid" 2>/dev/null || true)"
	net_teardown
	;;
partition)
	[ -f "$dir/net" ] || { echo "cluster.sh: no network namespaces (not root, or HA_NETNS=0): cannot partition" >&2; exit 1; }
	node=$(leader)
	[ -n "$node" ] || { echo "cluster.sh: no leader" >&2; exit 1; }
	ip link set "$(node_link "$node")" down
	echo "$node"
	;;
heal)
	[ $# -eq 3 ] || usage
	ip link set "$(node_link "$3")" up
	;;
rejoin)
	[ $# -ge 3 ] || usage
	rejoin "$3" "${4:-30}"
	;;
leader)
	leader
	;;
healthy)
	wait_healthy "${3:-60}" "${4:-}"
	;;
kill-postmaster)
	node=$(leader)
	[ -n "$node" ] || { echo "cluster.sh: no leader" >&2; exit 1; }
	pid=$(postmaster_pid "$node")
	kill -KILL "$pid"
	echo "$node"
	;;
kill-node)
	node=$(leader)
	[ -n "$node" ] || { echo "cluster.sh: no leader" >&2; exit 1; }
	kill_group "$(cat "$dir/$node/patroni.pid")"
	kill_group "$(postmaster_pid "$node")"
	echo "$node"
	;;
revive)
	[ $# -eq 3 ] || usage
	node=$3
	rm -f "$dir/$node/data/postmaster.pid"
	start_node "$node"
	;;
switchover)
	from=$(leader)
	[ -n "$from" ] || { echo "cluster.sh: no leader" >&2; exit 1; }
	ctl switchover --force --leader "$from" "$scope" >"$dir/switchover.log" 2>&1 || { cat "$dir/switchover.log" >&2; exit 1; }
	echo "$from"
	;;
list)
	ctl list
	;;
*)
	usage
	;;
esac
