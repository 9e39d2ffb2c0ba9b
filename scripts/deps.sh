#!/bin/sh
# Install the Debian packages the build and the tests need, when missing. Does nothing
# (quickly) when all are present. Run as root (apt-get); otherwise says what to install.
set -eu

PACKAGES="gcc make pkg-config libc6-dev libmicrohttpd-dev libpq-dev libjansson-dev check libsubunit-dev \
libcurl4-openssl-dev libssl-dev postgresql postgresql-contrib postgresql-common python3"

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
apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 || {
	apt-get update >/dev/null
	apt-get install -y --no-install-recommends $missing
}
