#!/bin/sh
# Install the Debian packages the build and the tests need, when missing. Does nothing
# (quickly) when all are present. Run as root (apt-get); otherwise says what to install.
set -eu

PACKAGES="gcc make pkg-config libc6-dev libmicrohttpd-dev libpq-dev libjansson-dev check libsubunit-dev \
libcurl4-openssl-dev libssl-dev libgmime-3.0-dev postgresql postgresql-contrib postgresql-common python3 python3-aiosmtpd haproxy \
clang clang-format libclang-rt-14-dev libicu-dev libcairo2-dev libpng-dev fonts-dejavu-core libxml2-utils chromium curl jq \
patroni etcd-server etcd-client postfix"

# patroni (3.0.2), etcd-server (3.4) and etcd-client (etcdctl) run the high-availability
# suite (tests/ha/, scripts/ha/cluster.sh): three PostgreSQL nodes under Patroni with etcd
# as its store, on this machine.

# cairo draws the board pictures (render/) with the DejaVu fonts found through fontconfig,
# libpng writes them as PNG;
# xmllint (libxml2-utils) parses them in the HTTP tests.

# libicu-dev (ICU 72, Unicode 15.0 on Debian 12) judges whether a name shows anything
# (codec/person_name.c: NFC, Default_Ignorable_Code_Point, general categories).

# postfix delivers the replies of tests/api/test_async_mail_postfix.c: a private instance on
# loopback (tests/api/postfix_local.sh), never the system's. Installed with debconf's "No
# configuration" (no /etc/postfix/main.cf), and the system's instance is stopped and disabled
# after the install, so nothing listens on port 25.

# libgmime-3.0-dev reads the mails that come in (deliver/mail_in.c: replies with moves,
# cmd/catan_mail_in.c).
# python3-aiosmtpd is the SMTP sink the mail tests run (tests/api/smtp_sink.py, with Debian's
# /usr/bin/python3).

# clang and its runtime (libFuzzer, the sanitizers) build the fuzz targets of tests/fuzz/;
# clang-format (14 on Debian 12) holds the tree to .clang-format (scripts/format-check.sh).
# chromium runs the web client's browser tests (web/tests/run.mjs, through playwright-core).

# curl and jq run the README's walk-through, as a reader would (tests/api/test_http_readme.c);
# python3 runs the reference bot (examples/bot.py, tests/api/test_http_example_bot.c).

# Node.js and npm run the OpenAPI tools (openapi/openapi.mk: lint, the JSON bundle, the Prism
# proxy of the HTTP tests). Debian's are installed only when there is no `node` at all, so
# a newer Node.js installed some other way is left alone.
NPM_PACKAGES="nodejs npm"
if ! command -v node >/dev/null 2>&1; then
	PACKAGES="$PACKAGES $NPM_PACKAGES"
fi

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "scripts/deps.sh: missing Debian packages:$missing" >&2
	echo "install them with: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "scripts/deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
case " $missing " in
*" postfix "*)
	echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
	new_postfix=1
	;;
esac
apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 || {
	apt-get update >/dev/null
	apt-get install -y --no-install-recommends $missing
}
if [ -n "${new_postfix:-}" ]; then
	if command -v systemctl >/dev/null 2>&1; then
		systemctl disable --now postfix.service >/dev/null 2>&1 || true
	fi
	if [ -f /etc/postfix/main.cf ] && /usr/sbin/postfix status >/dev/null 2>&1; then
		/usr/sbin/postfix stop >/dev/null 2>&1 || true
	fi
fi
