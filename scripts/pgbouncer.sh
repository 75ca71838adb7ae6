#!/usr/bin/env bash
# Makes sure a PgBouncer of at least 1.21 is installed: the first release
# that keeps prepared statements working in transaction pooling
# (max_prepared_statements), which the store uses through a pooler. Debian's
# package when its candidate is new enough; otherwise PgBouncer built from
# Debian's trixie source package and installed under /usr/local, where it
# comes first on PATH. Safe to run again; each step it takes is announced
# on a line of its own.
set -euo pipefail
min=1.21

as_root() { if [[ $(id -u) == 0 ]]; then "$@"; else sudo "$@"; fi; }
# newer_or_equal succeeds when version $1 is at least $2.
newer_or_equal() { [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1) == "$2" ]]; }
# installed prints the version of the pgbouncer the tests would run: the
# one on PATH, else Debian's.
installed() {
  local bin
  bin=$(command -v pgbouncer 2>/dev/null || true)
  [[ -n $bin ]] || { [[ -x /usr/sbin/pgbouncer ]] && bin=/usr/sbin/pgbouncer; } || return 0
  "$bin" --version 2>/dev/null | sed -n 's/^PgBouncer \([0-9.]*\).*/\1/p' | head -1
}

have=$(installed)
if [[ -n $have ]] && newer_or_equal "$have" "$min"; then
  exit 0
fi

apt_updated=
apt_install() {
  [[ -n $apt_updated ]] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

candidate=$(apt-cache policy pgbouncer 2>/dev/null | sed -n 's/^ *Candidate: \([0-9.]*\).*/\1/p')
if [[ -n $candidate ]] && newer_or_equal "$candidate" "$min"; then
  echo "services: installing PgBouncer $candidate (apt-get install pgbouncer)"
  apt_install pgbouncer
  exit 0
fi

echo "services: PgBouncer ${have:-none} is older than $min and Debian's package is ${candidate:-missing}; building it from Debian's trixie source package"
src_list=/etc/apt/sources.list.d/inkwell-trixie-src.list
if [[ ! -f $src_list ]]; then
  echo "services: adding the source-only line 'deb-src http://deb.debian.org/debian trixie main' in $src_list"
  echo 'deb-src http://deb.debian.org/debian trixie main' | as_root tee "$src_list" >/dev/null
  apt_updated=
fi
[[ -n $apt_updated ]] || { echo "services: apt-get update"; as_root apt-get update -qq; apt_updated=1; }
echo "services: installing PgBouncer's build dependencies (libevent-dev libssl-dev pkg-config dpkg-dev make gcc)"
apt_install libevent-dev libssl-dev pkg-config dpkg-dev make gcc
work=$(mktemp -d)
chmod 755 "$work" # apt-get source downloads as the _apt user
trap 'rm -rf "$work"' EXIT
echo "services: fetching the pgbouncer source package (apt-get source pgbouncer) into $work"
(cd "$work" && apt-get source -qq --download-only pgbouncer/trixie >/dev/null && dpkg-source -x --no-check ./pgbouncer_*.dsc src >/dev/null)
echo "services: building PgBouncer (./configure --prefix=/usr/local && make)"
(cd "$work/src" && ./configure --prefix=/usr/local >/dev/null && make -s -j"$(nproc)" >/dev/null)
echo "services: installing PgBouncer into /usr/local (make install)"
(cd "$work/src" && as_root make -s install >/dev/null)
hash -r
have=$(installed)
if [[ -z $have ]] || ! newer_or_equal "$have" "$min"; then
  echo "services: PgBouncer on PATH is ${have:-missing} after the build, still older than $min" >&2
  exit 1
fi
echo "services: PgBouncer $have is at $(command -v pgbouncer)"
