#!/usr/bin/env bash
# Makes sure the tests' services are there: PostgreSQL on 127.0.0.1:5432 with
# a login that may create databases, Debian's Chromium for the browser tests,
# versitygw for the S3 tests (scripts/versitygw.sh), Mailpit for the mail
# tests (scripts/mailpit.sh), and podman with runc for make image and the
# image tests (internal/imagetest). Safe to run again.
#
# Every change it makes to the machine (installing a package, starting the
# cluster, creating or updating the test role) is announced on a line of its
# own; when nothing is missing it changes nothing. It never edits
# PostgreSQL's configuration: when TEST_DATABASE_URL (by default the superuser
# postgres without a password) cannot log in, it logs in as the postgres OS
# user over the local socket instead, gives the role inkwell_test a fresh
# random password and writes its URL to .test-database-url, which the
# Makefile's test targets read when the caller sets no TEST_DATABASE_URL.
set -euo pipefail
cd "$(dirname "$0")/.."

default_url='postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable'
url_file=.test-database-url
# The same order as the Makefile's: the caller's URL, the file's, the default.
url=${TEST_DATABASE_URL:-$(cat "$url_file" 2>/dev/null || true)}
url=${url:-$default_url}
role=inkwell_test

as_root() { if [[ $(id -u) == 0 ]]; then "$@"; else sudo "$@"; fi; }
apt_updated=
apt_install() {
  [[ -n $apt_updated ]] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
# as_postgres runs psql as the cluster's superuser over the local socket,
# where Debian lets the postgres OS user in by peer authentication.
as_postgres() { as_root su postgres -c "psql -X -q -v ON_ERROR_STOP=1 -d postgres $*"; }

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }

# usable succeeds when URL $1 logs in and its role may create databases, as
# pgtest does for every test.
usable() {
  [[ $(psql "$1" -X -Atc 'SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user' 2>/dev/null) == t ]]
}

# redact drops the password from URL $1, for messages.
redact() { sed -E 's#(://[^:/@]+):[^@]*@#\1:***@#' <<<"$1"; }

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "services: installing PostgreSQL (apt-get install postgresql)"
  apt_install postgresql
fi
if ! pg_up; then
  for v in $(ls /etc/postgresql); do
    echo "services: starting PostgreSQL cluster $v/main"
    as_root pg_ctlcluster --skip-systemctl-redirect "$v" main start || true
  done
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
fi
pg_up || { echo "services: PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1; }

if ! usable "$url"; then
  echo "services: $(redact "$url") cannot log in or create databases; using role $role instead"
  # Hexadecimal needs no quoting in SQL or in a URL.
  password=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
  if [[ $(as_postgres -At <<<"SELECT 1 FROM pg_roles WHERE rolname = '$role'") == 1 ]]; then
    echo "services: PostgreSQL: giving role $role a new random password, LOGIN and CREATEDB"
    verb=ALTER
  else
    echo "services: PostgreSQL: creating role $role with a random password, LOGIN and CREATEDB"
    verb=CREATE
  fi
  # The password goes through standard input, not the command line, which
  # other users can read.
  as_postgres <<<"$verb ROLE $role WITH LOGIN CREATEDB PASSWORD '$password'"
  new_url="postgres://$role:$password@127.0.0.1:5432/postgres?sslmode=disable"
  if ! usable "$new_url"; then
    hba=$(as_postgres -At <<<'SHOW hba_file')
    echo "services: role $role cannot log in over TCP at 127.0.0.1:5432 with its password;" \
      "$hba must allow password logins (scram-sha-256 or md5) from 127.0.0.1, or set TEST_DATABASE_URL" >&2
    exit 1
  fi
  old_file_url=$(cat "$url_file" 2>/dev/null || true)
  (umask 077 && printf '%s\n' "$new_url" >"$url_file")
  echo "services: wrote $(redact "$new_url") to $url_file (git-ignored), which make test uses"
  # The Makefile passes the default or the file's old URL when the caller
  # sets none; any other value is the caller's and keeps winning.
  if [[ -n ${TEST_DATABASE_URL:-} && $TEST_DATABASE_URL != "$default_url" && $TEST_DATABASE_URL != "$old_file_url" ]]; then
    echo "services: TEST_DATABASE_URL is set and wins over $url_file; unset it to use role $role"
  fi
fi

if ! command -v chromium >/dev/null 2>&1; then
  echo "services: installing Chromium (apt-get install chromium)"
  apt_install chromium
fi
bash scripts/versitygw.sh
bash scripts/mailpit.sh
# PgBouncer and HAProxy: the tests run the stores through a pooler and a
# cluster of replicas behind a balancer, both started by the tests.
# PgBouncer must be 1.21 or later (prepared statements in transaction
# pooling): scripts/pgbouncer.sh builds one from Debian's trixie source
# package where bookworm's 1.18 is all apt offers.
bash scripts/pgbouncer.sh
command -v haproxy >/dev/null 2>&1 || [[ -x /usr/sbin/haproxy ]] || { echo "services: installing HAProxy (apt-get install haproxy)"; apt_install haproxy; }
# podman and runc: make image builds the container image with them and the
# image tests run it, rootful, without a daemon or systemd (the flags are
# scripts/podman.sh's).
for tool in podman runc; do
  command -v $tool >/dev/null 2>&1 || [[ -x /usr/sbin/$tool ]] || { echo "services: installing $tool (apt-get install $tool)"; apt_install $tool; }
done
