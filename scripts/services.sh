#!/usr/bin/env bash
# Makes sure the tests' services are there: PostgreSQL on 127.0.0.1:5432
# (started, or installed and started) and Debian's Chromium for the browser
# tests. Safe to run again.
set -euo pipefail

as_root() { if [[ $(id -u) == 0 ]]; then "$@"; else sudo "$@"; fi; }
apt_updated=
apt_install() {
  [[ -n $apt_updated ]] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "services: installing PostgreSQL"
  apt_install postgresql
fi
if ! pg_up; then
  echo "services: starting PostgreSQL"
  for v in $(ls /etc/postgresql); do
    as_root pg_ctlcluster --skip-systemctl-redirect "$v" main start || true
  done
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
fi
pg_up || { echo "services: PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1; }
# The tests connect as postgres without a password over TCP.
if ! psql -h 127.0.0.1 -U postgres -d postgres -Atc 'select 1' >/dev/null 2>&1; then
  # A fresh Debian install asks for a password over TCP; the first matching
  # line of pg_hba.conf wins, so trust loopback on the first line.
  hba=$(as_root su postgres -c "psql -Atc 'show hba_file'")
  as_root sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
  as_root su postgres -c "psql -qc 'select pg_reload_conf()'" >/dev/null
fi

if ! command -v chromium >/dev/null 2>&1; then
  echo "services: installing Chromium"
  apt_install chromium
fi
bash "$(dirname "$0")/versitygw.sh"
