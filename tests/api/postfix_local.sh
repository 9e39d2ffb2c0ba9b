#!/bin/sh
# A private Postfix on loopback for one test program (tests/api/test_async_mail_postfix.c),
# stopped and removed when the program ends, whichever way it ends.
#
#   tests/api/postfix_local.sh DOMAIN MAIL_IN PROGRAM [ARG...]
#
# Makes a temporary directory with the instance's config_directory (etc/), queue_directory
# (queue/) and data_directory (data/), and starts it (`postfix -c DIR/etc start`): smtpd on
# a free port of 127.0.0.1 only, DOMAIN the only domain it accepts mail for (relay_domains),
# and a transport map sending DOMAIN to the `catan` pipe transport, the README's master.cf
# line ("Play by mail") with user=nobody and argv= a wrapper, DIR/catan-mail-in, that reads
# the environment from DIR/mail-in.env (which PROGRAM writes: only it knows its mail sink
# and server) and runs a copy of MAIL_IN (a copy, so that nobody can run it wherever the
# build directory is), its stderr appended to DIR/mail-in.log. Nothing leaves the machine:
# every other destination is discarded, and nothing is delivered locally. Retries are quick
# (a deferred mail is tried again within 2-3 s), for the test of exit status 75; not below
# 2 s: a deferred mail due again within a second can meet the scan of the deferred queue
# while the pipe still holds the file, and qmgr then puts it off for 60 s ("skipped, still
# being delivered").
#
# PROGRAM then runs with POSTFIX_LOCAL_DIR=DIR and POSTFIX_LOCAL_PORT (smtpd's port) in its
# environment; this script exits with its status. Postfix's log is DIR/maillog (printed
# when PROGRAM fails). Exit status 77 (skipped) when Postfix cannot run here: not installed
# (Debian's postfix, scripts/deps.sh), or not root (Postfix's master runs as root).
#
# The pipe runs as nobody, which must reach the database: with the throwaway cluster of
# scripts/with-postgres.sh (CATAN_TEST_PG_DIR, a directory of mode 700 holding its socket),
# that directory is made traversable by others (o+x: its files keep their own modes).
set -eu

[ $# -ge 3 ] || { echo "usage: tests/api/postfix_local.sh DOMAIN MAIL_IN PROGRAM [ARG...]" >&2; exit 2; }
domain=$1
mail_in=$2
shift 2

PATH=$PATH:/usr/sbin:/sbin
if ! command -v postfix >/dev/null 2>&1; then
	echo "postfix_local.sh: SKIPPED: Postfix is not installed (scripts/deps.sh installs it)" >&2
	exit 77
fi
if [ "$(id -u)" != 0 ]; then
	echo "postfix_local.sh: SKIPPED: Postfix runs as root only (this is uid $(id -u))" >&2
	exit 77
fi
if ! id nobody >/dev/null 2>&1 || ! id postfix >/dev/null 2>&1; then
	echo "postfix_local.sh: the users nobody and postfix must exist (Debian's postfix package)" >&2
	exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/catan-postfix-XXXXXX")
stop() {
	postfix -c "$dir/etc" stop >/dev/null 2>&1 || true
	# The master leaves within a second or so; its pid file says whether it is gone.
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		[ -f "$dir/queue/pid/master.pid" ] || break
		kill -0 "$(tr -d ' ' <"$dir/queue/pid/master.pid")" 2>/dev/null || break
		sleep 0.25
	done
	rm -rf "$dir"
}
trap stop EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
chmod 755 "$dir"
mkdir -p "$dir/etc" "$dir/queue" "$dir/data" "$dir/bin"
chown postfix: "$dir/data"
cp "$mail_in" "$dir/bin/catan-mail-in"
chmod 755 "$dir/bin/catan-mail-in"
: >"$dir/mail-in.env"
: >"$dir/mail-in.log"
chmod 644 "$dir/mail-in.env"
chmod 666 "$dir/mail-in.log"
cat >"$dir/catan-mail-in" <<EOF
#!/bin/sh
set -a
. $dir/mail-in.env
exec $dir/bin/catan-mail-in "\$@" 2>>$dir/mail-in.log
EOF
chmod 755 "$dir/catan-mail-in"
[ -n "${CATAN_TEST_PG_DIR:-}" ] && chmod o+x "$CATAN_TEST_PG_DIR"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cat >"$dir/etc/main.cf" <<EOF
compatibility_level = 3.6
config_directory = $dir/etc
queue_directory = $dir/queue
data_directory = $dir/data
maillog_file = $dir/maillog
maillog_file_prefixes = $dir
myhostname = mx.catan.test
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
mydestination =
relay_domains = $domain
local_transport = error:no local delivery in this test
default_transport = discard
transport_maps = hash:$dir/etc/transport
catan_destination_recipient_limit = 1
queue_run_delay = 1s
minimal_backoff_time = 2s
maximal_backoff_time = 4s
smtpd_banner = \$myhostname ESMTP
biff = no
EOF
printf '%s    catan:\n' "$domain" >"$dir/etc/transport"
postmap -c "$dir/etc" "$dir/etc/transport"
# Postfix's own services (Debian's master.cf without chroot: the queue directory has
# nothing a chroot needs), smtpd on the free port, and the README's pipe.
cat >"$dir/etc/master.cf" <<EOF
127.0.0.1:$port inet n - n - - smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
catan     unix  -       n       n       -       4       pipe
  flags=Rq user=nobody argv=$dir/catan-mail-in \${recipient}
EOF

if ! postfix -c "$dir/etc" start >"$dir/start.log" 2>&1; then
	cat "$dir/start.log" >&2
	[ -f "$dir/maillog" ] && cat "$dir/maillog" >&2
	exit 1
fi
# smtpd answers once the master listens.
for _ in $(seq 1 100); do
	python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' "$port" \
		2>/dev/null && break
	sleep 0.1
done

status=0
POSTFIX_LOCAL_DIR=$dir POSTFIX_LOCAL_PORT=$port "$@" || status=$?
if [ $status -ne 0 ]; then
	echo "postfix_local.sh: $1 failed ($status); Postfix's log:" >&2
	cat "$dir/maillog" >&2 || true
	echo "postfix_local.sh: catan-mail-in's stderr:" >&2
	cat "$dir/mail-in.log" >&2 || true
fi
exit $status
