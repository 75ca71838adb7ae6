#!/usr/bin/env bash
# Measures the built server with wrk, on SQLite and on PostgreSQL in turn, and
# writes bench/results/<date>-<posts>.md and .json. docs/PERFORMANCE.md
# describes the scenarios; the variables are:
#
#   BENCH_POSTS        posts to seed (100000); 10,000 users, 200 tags and
#                      3 comments per post go with them
#   BENCH_STORES       sqlite,postgres (either or both), or pgbouncer:
#                      PostgreSQL through PgBouncer in transaction pooling
#                      (deploy/pgbouncer.ini on BENCH_PORT + 2), as
#                      replicas reach it, with DATABASE_DIRECT_URL direct,
#                      or standby: a PostgreSQL primary of the run's own on
#                      BENCH_PORT + 3 (initdb, with the machine's cluster's
#                      settings that matter: 128 MB of shared buffers,
#                      autovacuum off, fsync on) and a hot standby streaming
#                      from it on BENCH_PORT + 4 (pg_basebackup -R), made
#                      after the seed, as DATABASE_READ_URL: anonymous
#                      reads go to the standby; or primary: the same
#                      primary alone, made the same way, with no standby
#                      and no DATABASE_READ_URL, the baseline that the
#                      standby row's overhead is measured against; or
#                      sqlite-backup: the SQLite store with its continuous
#                      backup on (BACKUP_URL), to a versitygw of the run's
#                      own on BENCH_PORT + 5 over a scratch folder (versitygw
#                      on PATH or in Go's bin folder: scripts/versitygw.sh),
#                      the row the sqlite row's create is compared with.
#                      The replica is settled before the scenarios: a
#                      server runs until the first snapshot and the first
#                      compaction of every level, which copy the whole
#                      database once each, are on it, so that the runs
#                      measure what a running backup costs, not its first
#                      minutes
#   BENCH_DURATION     seconds each measured run lasts (15)
#   BENCH_WARMUP       seconds of warm-up before it (3)
#   BENCH_CONNECTIONS  connections (50); BENCH_THREADS wrk threads (2)
#   BENCH_SCENARIOS    a comma list to run a subset (all)
#   BENCH_SEARCH_WORDS a comma list of the searches list-search runs, each
#                      measured and reported on its own; v2-search runs the
#                      first. Unset, list-search searches by classes
#                      instead: for each run it draws fresh inputs from a
#                      sample of the seeded titles (search_classes below),
#                      BENCH_SEARCH_DRAWS of each class, measures each and
#                      reports the slowest of each class, with the input
#                      and its total
#   BENCH_SEARCH_DRAWS inputs drawn per class (3)
#   BENCH_PG_KEEP      1: keep the seeded PostgreSQL database, named by what
#                      decides its content as the SQLite file is, and reuse
#                      it in later runs, rather than seed a scratch one
#   BENCH_PORT         the server's port on 127.0.0.1 (3900)
#   BENCH_PROFILE      1: take a CPU profile of every measured run through
#                      the server's PPROF_ADDR, into bench/cache/profiles
#   BENCH_RESEED       1: seed SQLite again rather than reuse bench/cache
#   BENCH_CACHE_OFF    1: every scenario runs with the cache of anonymous
#                      reads off (HTTP_CACHE_MAX_BYTES=0); otherwise only
#                      list-cached, show-cached and list-token run with it on
#                      (its default), the rest with it off, so that they
#                      measure the store and the rendering they always did
#   BENCH_QUIET_WAIT   seconds to wait, before each scenario, for the rest of
#                      the machine to fall under 15% busy (120)
#   BENCH_RETRIES      times a scenario is measured again when other work
#                      took a quarter of a core during it (2); the least
#                      disturbed run is kept, and a disturbed one is marked
#   BENCH_SSE_STREAMS  event streams sse-idle and sse-fanout open (10000),
#                      all of one reader's token, from 127.0.0.1: the
#                      server runs with EVENTS_MAX_STREAMS_PER_TOKEN=0 and
#                      EVENTS_MAX_STREAMS_PER_ADDRESS=0, and the script
#                      raises its open-file limit (ulimit -n, which the
#                      server and the load tool inherit) above the streams,
#                      or stops when the hard limit is lower
#   BENCH_SSE_RATE     posts a second sse-fanout's author writes (10), for
#                      BENCH_SSE_SECONDS (20)
#   BCRYPT_COST        the cost users are seeded with and the server runs
#                      at (12, the server's default)
#   SQLITE_SYNCHRONOUS the SQLite server's synchronous setting, full or
#                      normal (full, the server's default)
#
# It sends requests to 127.0.0.1 only: to the server on BENCH_PORT (which
# listens there alone, HOST=127.0.0.1, as its profiles do) and to
# PostgreSQL on 5432 as user postgres, in a
# scratch database inkwell_bench_<pid> that is dropped at the end, also after
# a failure or an interrupt (with BENCH_PG_KEEP=1, in inkwell_bench_keep_*,
# which is kept; the standby store's pair lives in a temporary folder,
# removed at the end, and is never kept). Every process it starts is
# stopped by its pid (the pair's servers through pg_ctl, by theirs),
# and every wrk run is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

say() { printf 'bench: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# The scenarios in the order of the report, and the order they run in: the
# writing ones last, so that the posts create adds do not change what the
# reading ones see, and login before create since both write.
# sse-idle and sse-fanout are measured with bench/events rather than wrk,
# and reported in a table of their own.
report_order=(list list-cached list-token list-search list-deep v2-cursor v2-search show show-cached me create login ceiling healthz sse-idle sse-fanout)
run_order=(ceiling healthz list list-cached list-token list-search list-deep v2-cursor v2-search show show-cached me login create sse-idle sse-fanout)

posts=${BENCH_POSTS:-100000}
stores=${BENCH_STORES:-sqlite,postgres}
duration=${BENCH_DURATION:-15}
duration=${duration%s}
warmup=${BENCH_WARMUP:-3}
warmup=${warmup%s}
connections=${BENCH_CONNECTIONS:-50}
threads=${BENCH_THREADS:-2}
port=${BENCH_PORT:-3900}
profile=${BENCH_PROFILE:-0}
reseed=${BENCH_RESEED:-0}
quiet_wait=${BENCH_QUIET_WAIT:-120}
cache_off=${BENCH_CACHE_OFF:-0}
retries=${BENCH_RETRIES:-2}
cost=${BCRYPT_COST:-12}
synchronous=${SQLITE_SYNCHRONOUS:-full}
wanted=${BENCH_SCENARIOS:-$(IFS=,; echo "${report_order[*]}")}
sse_streams=${BENCH_SSE_STREAMS:-10000}
sse_rate=${BENCH_SSE_RATE:-10}
sse_seconds=${BENCH_SSE_SECONDS:-20}

users=10000
tags=200
# token_users log in at the start and hold the tokens of me, v2-cursor and
# create; login uses the users after them, since a login deletes the user's
# earlier tokens.
token_users=16
# sample is how many random post ids and cursor positions the scenarios
# draw from.
sample=10000
# search_words are the searches list-search runs, and search_classes the
# class of each ("" for a search given by BENCH_SEARCH_WORDS); drawn
# searches are drawn at the first store and kept for the others, whose
# seeds are the same.
search_words=()
search_classes=()
if [[ -n ${BENCH_SEARCH_WORDS:-} ]]; then
  IFS=, read -ra search_words <<<"$BENCH_SEARCH_WORDS"
  ((${#search_words[@]} > 0)) || die "BENCH_SEARCH_WORDS: want at least one search"
  for _ in "${search_words[@]}"; do search_classes+=(""); done
fi
search_word=${search_words[0]:-}
search_draws=${BENCH_SEARCH_DRAWS:-3}
keep_pg=${BENCH_PG_KEEP:-0}
password=password

for v in BENCH_SEARCH_DRAWS:search_draws BENCH_POSTS:posts BENCH_DURATION:duration BENCH_WARMUP:warmup BENCH_CONNECTIONS:connections \
  BENCH_THREADS:threads BENCH_PORT:port BCRYPT_COST:cost BENCH_QUIET_WAIT:quiet_wait BENCH_RETRIES:retries \
  BENCH_SSE_STREAMS:sse_streams BENCH_SSE_RATE:sse_rate BENCH_SSE_SECONDS:sse_seconds; do
  var=${v#*:}
  [[ ${!var} =~ ^[0-9]+$ ]] || die "${v%%:*}: ${!var} is not a whole number"
done
((posts >= 1000)) || die "BENCH_POSTS: want at least 1000"
((duration >= 1 && duration <= 600)) || die "BENCH_DURATION: want 1-600 seconds"
((warmup <= 60)) || die "BENCH_WARMUP: want at most 60 seconds"
((connections >= threads && threads >= 1)) || die "BENCH_CONNECTIONS must be at least BENCH_THREADS"
((port >= 1024 && port <= 65534)) || die "BENCH_PORT: want 1024-65534"
((cost >= 4 && cost <= 31)) || die "BCRYPT_COST: want 4-31"
[[ $synchronous == full || $synchronous == normal ]] || die "SQLITE_SYNCHRONOUS: want full or normal"
IFS=, read -ra store_list <<<"$stores"
for s in "${store_list[@]}"; do
  [[ $s == sqlite || $s == sqlite-backup || $s == postgres || $s == pgbouncer || $s == standby || $s == primary ]] ||
    die "BENCH_STORES: $s is none of sqlite, sqlite-backup, postgres, pgbouncer, standby, primary"
done
IFS=, read -ra wanted_list <<<"$wanted"
for s in "${wanted_list[@]}"; do
  [[ " ${report_order[*]} " == *" $s "* ]] || die "BENCH_SCENARIOS: unknown scenario $s (known: ${report_order[*]})"
done
selected() { [[ ",$wanted," == *",$1,"* ]]; }
comments=$((3 * posts))

# The report's command names every variable the caller set, so that it
# repeats the run.
command="BENCH_POSTS=$posts BENCH_STORES=$stores BENCH_DURATION=$duration"
for v in BENCH_WARMUP BENCH_CONNECTIONS BENCH_THREADS BENCH_SCENARIOS BENCH_SEARCH_WORDS BENCH_SEARCH_DRAWS BENCH_PG_KEEP BENCH_PORT BENCH_PROFILE \
  BENCH_RESEED BENCH_QUIET_WAIT BENCH_RETRIES BENCH_CACHE_OFF BENCH_SSE_STREAMS BENCH_SSE_RATE BENCH_SSE_SECONDS BCRYPT_COST SQLITE_SYNCHRONOUS; do
  [[ -z ${!v:-} ]] || { [[ ${!v} == *' '* ]] && command+=" $v='${!v}'" || command+=" $v=${!v}"; }
done
command+=" make bench"

need() {
  command -v "$1" >/dev/null || die "$1 is missing: apt-get install -y ${2:-$1}"
}
need wrk
need curl
need jq
need go golang
need timeout coreutils
[[ $stores == *sqlite* ]] && need sqlite3
# Every store but sqlite and sqlite-backup is a PostgreSQL.
[[ ,$stores, =~ ^(,sqlite|,sqlite-backup)+,$ ]] || need psql postgresql-client
[[ $stores == *pgbouncer* ]] && { command -v pgbouncer >/dev/null || [[ -x /usr/sbin/pgbouncer ]] || die "BENCH_STORES=pgbouncer needs PgBouncer 1.21 or later (make services)"; }

base=http://127.0.0.1:$port
pprof_port=$((port + 1))
# pg reaches the store's PostgreSQL: the machine's, or the standby store's
# own primary; pg_ports are the servers whose backends count as the run's.
pg_direct=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p 5432 -U postgres)
pg=("${pg_direct[@]}")
pg_ports=(5432)
cores=$(nproc)
clk_tck=$(getconf CLK_TCK)
today=$(date -u +%F)

# State the cleanup needs; every process is stopped by its own pid.
server_pid=
writer_pid=
child_pid=
bouncer_pid=
bouncer_dir=
pair_dir=
pair_bin=
# store_vars are the server's extra variables for the store being measured.
store_vars=()
profile_pid=
s3_pid=
pg_db=
pg_kept=
partial=
search_label=
search_class=
searched='{}'
work=$(mktemp -d "${TMPDIR:-/tmp}/inkwell-bench.XXXXXX")

# stop_writer stops the background writes of the cached scenarios.
stop_writer() {
  [[ -n ${writer_pid:-} ]] || return 0
  kill "$writer_pid" 2>/dev/null || true
  wait "$writer_pid" 2>/dev/null || true
  writer_pid=
}

stop_server() {
  [[ -n $server_pid ]] || return 0
  local pid=$server_pid
  server_pid=
  kill -TERM "$pid" 2>/dev/null || return 0
  # SIGTERM drains the requests in flight (logins take seconds under load).
  for _ in $(seq 1 400); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

drop_db() {
  [[ -n $pg_db ]] || return 0
  local db=$pg_db
  pg_db=
  # A kept database is dropped only when its seed did not finish.
  [[ -z $pg_kept ]] || return 0
  "${pg[@]}" -d postgres -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 ||
    say "could not drop database $db; drop it by hand"
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for pid in $child_pid $profile_pid; do kill -TERM "$pid" 2>/dev/null || true; done
  [[ -z $child_pid ]] || wait "$child_pid" 2>/dev/null || true
  stop_writer
  stop_server
  stop_bouncer
  stop_s3
  drop_db
  stop_pair
  [[ -n $partial ]] && rm -f "$partial" "$partial"-wal "$partial"-shm
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'say interrupted; exit 130' INT TERM

# in_background runs a command in the background with its output going to
# the file named first, and waits for it, so that an interrupt reaches the
# trap at once rather than after the command, and the trap can stop it by
# its pid. The shell's own output stays where it was, for the trap to say so.
in_background() {
  local out=$1
  shift
  "$@" >"$out" 2>&1 &
  child_pid=$!
  local rc=0
  wait "$child_pid" || rc=$?
  child_pid=
  return "$rc"
}

# start_server starts the server on a store, with extra variables if given.
# Nothing is inherited from the caller's environment but PATH and HOME, so
# that a DATABASE_URL, PORT or limit set in the caller's shell cannot change
# what is measured or where it goes.
start_server() {
  local url=$1 log=$2
  shift 2
  if curl -s -o /dev/null --max-time 1 "$base/healthz"; then
    die "something already answers on $base; set BENCH_PORT to a free port"
  fi
  local vars=(PATH="$PATH" HOME="$HOME"
    HOST=127.0.0.1 PORT="$port" DATABASE_URL="$url" APP_ENV=production SQLITE_SYNCHRONOUS="$synchronous"
    APP_KEY="base64:$(head -c 32 /dev/urandom | base64 -w 0)"
    LOG_LEVEL=warn LOGIN_MAX_ATTEMPTS=0 TOKEN_EXPIRATION_MINUTES=525600
    BCRYPT_COST="$cost" STORAGE_DIR="$work/storage" BENCH_ENDPOINTS=1 "${store_vars[@]}" "$@")
  ((profile == 0)) || vars+=(PPROF_ADDR="127.0.0.1:$pprof_port")
  env -i "${vars[@]}" "$root/bin/inkwell" serve >>"$log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do
    curl -fs -o /dev/null --max-time 1 "$base/readyz" && return 0
    if ! kill -0 "$server_pid" 2>/dev/null; then
      server_pid=
      tail -n 20 "$log" >&2
      die "the server stopped while starting"
    fi
    sleep 0.1
  done
  tail -n 20 "$log" >&2
  die "the server was not ready after 30 s"
}

# start_s3 runs versitygw on BENCH_PORT + 5 over a scratch folder, with a
# bucket "bench", for the sqlite-backup store's replica.
start_s3() {
  local bin s3port=$((port + 5))
  bin=$(command -v versitygw || echo "$(go env GOPATH | cut -d: -f1)/bin/versitygw")
  [[ -x $bin ]] || die "BENCH_STORES=sqlite-backup needs versitygw (scripts/versitygw.sh)"
  mkdir -p "$work/s3"
  "$bin" --access bench --secret bench-secret --region us-east-1 --port "127.0.0.1:$s3port" --quiet \
    posix "$work/s3" >>"$work/versitygw.log" 2>&1 &
  s3_pid=$!
  for _ in $(seq 1 100); do
    curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$s3port/" && break
    sleep 0.1
  done
  # S3 wants the payload's digest, here the empty body's, beside the signature.
  curl -fsS -o /dev/null --max-time 10 -X PUT --aws-sigv4 "aws:amz:us-east-1:s3" --user bench:bench-secret \
    -H "x-amz-content-sha256: $(printf '' | sha256sum | cut -d' ' -f1)" "http://127.0.0.1:$s3port/bench" || die "versitygw on $s3port: could not create the bucket; see $work/versitygw.log"
}

# settle_backup runs servers until the replica holds its first snapshot
# and a file of every compaction level (versitygw keeps the levels as
# folders 0001 to 0003 and 0009 under the prefix), at most five starts. A
# server compacts at its start every level that has none, from the level
# below as it is then, so each start adds the next level; each level's
# first file holds the whole database.
settle_backup() {
  local url=$1 started=$SECONDS level ok=0 round began
  for round in 1 2 3 4 5; do
    start_server "$url" "$work/server-sqlite-backup-settle.log"
    began=$SECONDS
    while ((SECONDS - began < 30)); do
      ok=1
      for level in 0001 0002 0003 0009; do
        compgen -G "$work/s3/bench/inkwell/$level/*.ltx" >/dev/null || ok=0
      done
      ((ok)) && break
      sleep 1
    done
    # Let the compaction that made the last level finish its upload.
    sleep 3
    stop_server
    ((ok)) && break
  done
  ((ok)) || die "the backup's replica did not settle in 5 minutes; see $work/server-sqlite-backup-settle.log"
  say "sqlite-backup: the replica settled in $((SECONDS - started)) s (first snapshot and compactions)"
}

stop_s3() {
  [[ -n $s3_pid ]] || return 0
  kill -TERM "$s3_pid" 2>/dev/null || true
  wait "$s3_pid" 2>/dev/null || true
  s3_pid=
}

# start_bouncer runs PgBouncer from deploy/pgbouncer.ini in front of
# PostgreSQL on 127.0.0.1:5432, on BENCH_PORT + 2, trusting the postgres
# user. PgBouncer refuses to run as root, so root runs it as postgres.
start_bouncer() {
  local bin listen=$((port + 2))
  bin=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
  bouncer_dir=$(mktemp -d /tmp/inkwell-bench-pgbouncer.XXXXXX)
  chmod 755 "$bouncer_dir"
  echo '"postgres" ""' >"$bouncer_dir/userlist.txt"
  sed -e "s|^listen_port = .*|listen_port = $listen|" -e 's|^auth_type = .*|auth_type = trust|' \
    -e "s|^auth_file = .*|auth_file = $bouncer_dir/userlist.txt|" -e 's|^logfile = .*|logfile =|' \
    -e 's|^pidfile = .*|pidfile =|' deploy/pgbouncer.ini >"$bouncer_dir/pgbouncer.ini"
  chmod 644 "$bouncer_dir"/*
  if [[ $(id -u) == 0 ]]; then
    setpriv --reuid="$(id -u postgres)" --regid="$(id -g postgres)" --clear-groups \
      "$bin" "$bouncer_dir/pgbouncer.ini" >"$work/pgbouncer.log" 2>&1 &
  else
    "$bin" "$bouncer_dir/pgbouncer.ini" >"$work/pgbouncer.log" 2>&1 &
  fi
  bouncer_pid=$!
  for _ in $(seq 1 100); do
    pg_isready -q -h 127.0.0.1 -p "$listen" && return 0
    sleep 0.1
  done
  cat "$work/pgbouncer.log" >&2
  die "PgBouncer did not start on 127.0.0.1:$listen"
}

stop_bouncer() {
  [[ -n $bouncer_pid ]] && { kill -TERM "$bouncer_pid" 2>/dev/null || true; wait "$bouncer_pid" 2>/dev/null || true; }
  bouncer_pid=
  [[ -z $bouncer_dir ]] || rm -rf "$bouncer_dir"
  bouncer_dir=
}

# as_postgres runs a command as the postgres user when root runs the
# script, since PostgreSQL refuses to run as root, from / so that the
# user need not read the working folder.
as_postgres() {
  if [[ $(id -u) == 0 ]]; then
    (cd / && setpriv --reuid="$(id -u postgres)" --regid="$(id -g postgres)" --clear-groups "$@")
  else
    (cd / && "$@")
  fi
}

# pair_server starts a PostgreSQL server of the standby store's pair on
# the data folder given, on a loopback port, and waits for it.
pair_server() {
  local dir=$1 listen=$2
  as_postgres "$pair_bin/pg_ctl" -D "$dir" -l "$dir.log" -w -t 120 -o "-p $listen -k $pair_dir \
    -c listen_addresses=127.0.0.1 -c shared_buffers=128MB -c autovacuum=off -c max_connections=100 \
    -c wal_level=replica -c hot_standby=on" start >/dev/null ||
    { tail -n 20 "$dir.log" >&2; die "PostgreSQL did not start on 127.0.0.1:$listen"; }
}

# own_primary says whether a store runs on a PostgreSQL primary of the
# run's own (standby, and primary, its baseline) rather than the machine's.
own_primary() {
  [[ $1 == standby || $1 == primary ]]
}

# start_primary makes and starts the standby store's primary on
# BENCH_PORT + 3, with PostgreSQL's binaries of the newest version
# installed (or PG_BINDIR's).
start_primary() {
  pair_bin=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
  [[ -x $pair_bin/initdb && -x $pair_bin/pg_basebackup ]] ||
    die "BENCH_STORES=standby or primary needs PostgreSQL's server binaries (apt-get install -y postgresql, or PG_BINDIR)"
  pair_dir=$(mktemp -d /tmp/inkwell-bench-standby.XXXXXX)
  chmod 755 "$pair_dir"
  [[ $(id -u) != 0 ]] || chown postgres:postgres "$pair_dir"
  as_postgres "$pair_bin/initdb" -D "$pair_dir/primary" -U postgres --auth=trust -E UTF8 --no-sync >"$work/initdb.log" 2>&1 ||
    { cat "$work/initdb.log" >&2; die "initdb failed"; }
  pair_server "$pair_dir/primary" $((port + 3))
}

# start_standby copies the primary with pg_basebackup -R, which makes the
# copy a hot standby streaming from it, and starts it on BENCH_PORT + 4.
start_standby() {
  as_postgres "$pair_bin/pg_basebackup" -h 127.0.0.1 -p $((port + 3)) -U postgres -D "$pair_dir/standby" \
    -R -X stream -c fast --no-sync >"$work/basebackup.log" 2>&1 ||
    { cat "$work/basebackup.log" >&2; die "pg_basebackup failed"; }
  pair_server "$pair_dir/standby" $((port + 4))
}

# stop_pair stops the pair's servers at once and removes their folder.
stop_pair() {
  [[ -n $pair_dir ]] || return 0
  local d
  for d in standby primary; do
    [[ -f $pair_dir/$d/postmaster.pid ]] || continue
    as_postgres "$pair_bin/pg_ctl" -D "$pair_dir/$d" -m immediate -w stop >/dev/null 2>&1 ||
      say "could not stop the $d in $pair_dir; stop it by hand"
  done
  rm -rf "$pair_dir"
  pair_dir=
}

# ticks prints a process's CPU time so far, in clock ticks.
ticks() {
  awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0
}

# pg_ticks prints "pid ticks" for every PostgreSQL backend serving the
# scratch database: the database work of the run, and nobody else's.
pg_ticks() {
  [[ -n $pg_db ]] || return 0
  local pid p
  for p in "${pg_ports[@]}"; do
    for pid in $("${pg_direct[@]/5432/$p}" -d postgres -Atc "SELECT pid FROM pg_stat_activity WHERE datname = '$pg_db'"); do
      echo "$pid $(ticks "$pid")"
    done
  done
}

# pg_delta prints the ticks the backends listed in two pg_ticks outputs
# spent between them; a backend that started in between counts whole.
pg_delta() {
  awk 'NR == FNR {start[$1] = $2; next} {d += $2 - (($1 in start) ? start[$1] : 0)} END {print d + 0}' "$1" "$2"
}

# machine_ticks prints "busy total" of all CPUs, in clock ticks.
machine_ticks() {
  awk '/^cpu / {busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6}' /proc/stat
}

# children_cpu writes the CPU seconds of the script's finished children so
# far to a file. The builtin runs in this shell, since a subshell would not
# know its parent's children; wrk's time reaches it through timeout.
children_cpu() {
  times >"$work/times"
  awk 'END {split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2]}' "$work/times" >"$1"
}

# busy_now prints the share of the machine busy over one second, in %.
busy_now() {
  local b0 t0 b1 t1
  read -r b0 t0 < <(machine_ticks)
  sleep 1
  read -r b1 t1 < <(machine_ticks)
  echo $(((b1 - b0) * 100 / (t1 - t0 > 0 ? t1 - t0 : 1)))
}

# wait_quiet waits up to BENCH_QUIET_WAIT seconds for three seconds in a
# row with the machine under 15% busy, since wrk and the server need all of
# it, and leaves the last figure in busy.
wait_quiet() {
  local deadline=$((SECONDS + quiet_wait)) quiet=0 told=
  while ((quiet < 3)); do
    busy=$(busy_now)
    if ((busy < 15)); then
      quiet=$((quiet + 1))
      continue
    fi
    quiet=0
    ((SECONDS < deadline)) || break
    [[ -n $told ]] || say "the machine is $busy% busy; waiting up to $quiet_wait s for it to calm down"
    told=1
    sleep 2
  done
  ((quiet >= 3)) || say "warning: the machine is still $busy% busy before $1; its figures will be low"
}

# wrk_run runs one wrk, bounded in time, and leaves its BENCH_RESULT line in
# wrk_result.
wrk_run() {
  local scenario=$1 seconds=$2 conns=$3 out=$4 timeout=$5
  local rc=0
  BENCH_CONNECTIONS=$conns BENCH_SECONDS=$seconds in_background "$out" timeout -k 5 $((seconds + timeout + 30)) \
    wrk -t"$threads" -c"$conns" -d"${seconds}s" --timeout "${timeout}s" --latency \
    -s "$root/bench/$scenario.lua" "$base" || rc=$?
  wrk_result=$(sed -n 's/^BENCH_RESULT //p' "$out")
  if ((rc != 0)) || [[ -z $wrk_result ]]; then
    cat "$out" >&2
    die "wrk failed on $scenario (exit $rc)"
  fi
}

# --- the bcrypt reference -------------------------------------------------

# The tree the server is built from, read before the build, since the tree
# may change while the run lasts.
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[[ -z $(git status --porcelain -- . ':!bench/results' 2>/dev/null) ]] || commit="$commit with uncommitted changes"
say "building bin/inkwell"
go build -o bin/inkwell ./cmd/inkwell

if selected sse-idle || selected sse-fanout; then
  ((sse_streams >= 1 && sse_rate >= 1 && sse_seconds >= 1)) || die "BENCH_SSE_STREAMS, BENCH_SSE_RATE, BENCH_SSE_SECONDS: want at least 1"
  # Each stream is a descriptor in the server and one in the load tool,
  # which inherit the script's limit.
  files=$((sse_streams + 1024))
  if (($(ulimit -n) < files)); then
    ulimit -n "$files" 2>/dev/null ||
      die "the sse scenarios need $files open files, and the hard limit is $(ulimit -Hn); raise it or lower BENCH_SSE_STREAMS"
  fi
  go build -o "$work/events" ./bench/events
fi

hash_ms=0
hash_parallel_per_s=0
login_ceiling=0
if selected login; then
  # The test binary is built first, so that compiling it does not count as
  # other work on the machine.
  go test -c -o "$work/passwords.test" ./adapters/passwords
  wait_quiet "the bcrypt benchmark"
  say "measuring one bcrypt check at cost $cost (adapters/passwords BenchmarkCheck, the fastest of 3)"
  # A multiple of the cores as the number of checks gives every core of the
  # parallel benchmark the same share; with an odd number on two cores, one
  # core would do the last check alone and the rate would look a fifth lower.
  BCRYPT_COST=$cost in_background "$work/bcrypt.txt" "$work/passwords.test" -test.run '^$' -test.bench '^BenchmarkCheck' \
    -test.benchtime "$((3 * cores))x" -test.count 3 || { cat "$work/bcrypt.txt" >&2; die "the bcrypt benchmark failed"; }
  # The fastest run is the one least disturbed by anything else.
  ns=$(awk '$1 ~ /^BenchmarkCheck(-[0-9]+)?$/ && (m == "" || $3 < m) {m = $3} END {print m}' "$work/bcrypt.txt")
  ns_parallel=$(awk '$1 ~ /^BenchmarkCheckParallel(-[0-9]+)?$/ && (m == "" || $3 < m) {m = $3} END {print m}' "$work/bcrypt.txt")
  [[ -n $ns && -n $ns_parallel ]] || { cat "$work/bcrypt.txt" >&2; die "no figures in the bcrypt benchmark's output"; }
  hash_ms=$(jq -n "$ns / 1e6")
  hash_parallel_per_s=$(jq -n "1e9 / $ns_parallel")
  # The most logins the machine can do: every core hashing all the time.
  login_ceiling=$(jq -n "$cores * 1e9 / $ns")
  say "$(printf 'one check %.0f ms; %d cores: %.1f logins/s at most (measured on all cores at once: %.1f checks/s)' \
    "$hash_ms" "$cores" "$login_ceiling" "$hash_parallel_per_s")"
fi

# --- seeding ----------------------------------------------------------------

seed() {
  local url=$1 log=$2
  in_background "$log" env -i PATH="$PATH" HOME="$HOME" DATABASE_URL="$url" BCRYPT_COST="$cost" LOG_LEVEL=warn \
    "$root/bin/inkwell" seed --users "$users" --posts "$posts" --comments "$comments" --tags "$tags" ||
    { tail -n 20 "$log" >&2; die "seeding failed"; }
  tail -n 1 "$log" >&2
}

# sqlite_seeded copies a seeded SQLite file to $db. The seeded file is
# kept under bench/cache, named by what decides its content: the post count,
# the bcrypt cost, and the schema and generator it was made with.
sqlite_seeded() {
  local key cache
  key=$(cat sql/sqlite/migrations/*.sql adapters/sqlite/seed.go demo/demo.go demo/stream.go demo/words.go |
    sha256sum | cut -c1-12)
  cache=$root/bench/cache/sqlite-$posts-posts-cost$cost-$key.db
  mkdir -p "$root/bench/cache"
  if [[ $reseed == 1 || ! -f $cache ]]; then
    say "seeding SQLite ($posts posts) into $cache"
    # Earlier seeds of this size were made by another schema or generator.
    rm -f "$root/bench/cache/sqlite-$posts-posts-"*.db
    partial=$cache.partial
    rm -f "$partial" "$partial"-wal "$partial"-shm
    seed "sqlite://$partial" "$work/seed-sqlite.log"
    [[ ! -s $partial-wal ]] || sqlite3 "$partial" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
    rm -f "$partial"-wal "$partial"-shm
    mv "$partial" "$cache"
    partial=
  else
    say "reusing $cache (BENCH_RESEED=1 seeds again)"
  fi
  db=$work/sqlite.db
  cp "$cache" "$db"
}

# sample writes the data files the scenarios draw from: random published
# post ids, cursors at random positions of the whole list (the service's
# format: base64url without padding of "created_at_micros:id"), and the tag
# ids.
sample() {
  local store=$1 target=$2
  local ids="SELECT id FROM posts WHERE status = 'published' ORDER BY random() LIMIT $sample"
  local tag_ids="SELECT id FROM tags ORDER BY id"
  # SQLite keeps times as microseconds already.
  local micros="created_at"
  [[ $store == sqlite* ]] || micros="(extract(epoch FROM created_at) * 1000000)::bigint"
  local positions="SELECT $micros || ':' || id FROM posts ORDER BY random() LIMIT $sample"
  local query=(sqlite3 "$target")
  [[ $store == sqlite* ]] || query=("${pg[@]}" -d "$target" -Atc)
  "${query[@]}" "$ids" >"$work/ids.txt"
  "${query[@]}" "$positions" >"$work/positions.txt"
  "${query[@]}" "$tag_ids" >"$work/tags.txt"
  jq -Rr '@base64' "$work/positions.txt" | tr '+/' '-_' | tr -d '=' >"$work/cursors.txt"
  local f
  for f in ids positions tags; do
    [[ -s $work/$f.txt ]] || die "found no $f in the $store store"
  done
}

# draw_searches draws the searches of list-search, BENCH_SEARCH_DRAWS of
# each class, from 20,000 published titles drawn at random from the store
# (the same seed gives every store the same titles), lower-cased as ASCII
# for the words' shares. The classes, each by what a user may type:
#
#   share-1%     a text held by 0.5% to 2% of the sampled titles, the
#                start of a word of one, and of the words after it, 3 to
#                10 characters long (the seed's words are each in about 4%
#                of the titles, "inkwell" in 1%: whole words alone would
#                not reach these shares)
#   share-0.1%   the same, held by 0.05% to 0.2% of them
#   two-words    two words that follow each other in a title
#   join         3 to 6 characters of a title across the space between
#                two words, starting at a random character
#   one-title    a whole title, usually held by that title alone
#   fragment     3 to 6 characters of a title at a random place, spaces
#                and all: the seed's words are not the only source
#   two-chars    2 characters of a title at a random place
#
# A search's total, from the API, is reported beside it: the classes by
# the words' shares are the sample's, the totals the store's.
draw_searches() {
  local store=$1 target=$2
  local titles="SELECT title FROM posts WHERE status = 'published' ORDER BY random() LIMIT 20000"
  if [[ $store == sqlite ]]; then
    sqlite3 "$target" "$titles" >"$work/titles.txt"
  else
    "${pg[@]}" -d "$target" -Atc "$titles" >"$work/titles.txt"
  fi
  [[ -s $work/titles.txt ]] || die "found no published titles in the $store store"
  local line class input
  while IFS=$'\t' read -r class input; do
    search_classes+=("$class")
    search_words+=("$input")
  done < <(awk -v draws="$search_draws" -v seed="$RANDOM$RANDOM" '
    BEGIN { srand(seed) }
    { t[NR] = $0; lt[NR] = tolower($0) }
    # share returns a text from the start of a word of a sampled title,
    # held by lo to hi of the sampled titles.
    function share(lo, hi,   tries, s, at, len, c, j, cnt) {
      for (tries = 0; tries < 300; tries++) {
        s = lt[int(rand() * NR) + 1]
        at = int(rand() * length(s)) + 1
        while (at > 1 && substr(s, at - 1, 1) != " ") at--
        len = int(rand() * 8) + 3
        if (at + len - 1 > length(s)) continue
        c = substr(s, at, len)
        cnt = 0
        for (j = 1; j <= NR && cnt <= hi * NR; j++) if (index(lt[j], c)) cnt++
        if (cnt >= lo * NR && cnt <= hi * NR) return c
      }
      return ""
    }
    function title() { return t[int(rand() * NR) + 1] }
    function emit(class, s) { if (s != "") print class "\t" s }
    END {
      for (d = 0; d < draws; d++) {
        emit("share-1%", share(0.005, 0.02))
        emit("share-0.1%", share(0.0005, 0.002))
        for (tries = 0; tries < 100; tries++) {
          n = split(title(), w, / +/)
          if (n >= 2) { i = int(rand() * (n - 1)) + 1; emit("two-words", w[i] " " w[i + 1]); break }
        }
        for (tries = 0; tries < 100; tries++) {
          s = title(); len = int(rand() * 4) + 3
          sp = index(s, " ")
          if (sp < 2 || sp >= length(s)) continue
          # The space at a random place within the fragment.
          at = sp - int(rand() * (len - 1)) - 1
          if (at < 1 || at + len - 1 > length(s)) continue
          emit("join", substr(s, at, len)); break
        }
        emit("one-title", title())
        for (tries = 0; tries < 100; tries++) {
          s = title(); len = int(rand() * 4) + 3
          if (length(s) < len) continue
          emit("fragment", substr(s, int(rand() * (length(s) - len + 1)) + 1, len)); break
        }
        for (tries = 0; tries < 100; tries++) {
          s = title()
          if (length(s) < 2) continue
          emit("two-chars", substr(s, int(rand() * (length(s) - 1)) + 1, 2)); break
        }
      }
    }' "$work/titles.txt")
  ((${#search_words[@]} > 0)) || die "drew no searches from the $store store"
  search_word=${search_words[0]}
}

# prepare logs the token users in and reads the list's size through the API,
# on a server started for that alone.
prepare() {
  local store=$1 url=$2
  start_server "$url" "$work/server-$store-prepare.log"
  local n token
  : >"$work/tokens.txt"
  for n in $(seq 1 "$token_users"); do
    token=$(curl -fsS --max-time 60 -H 'Content-Type: application/json' -H 'Accept: application/json' \
      -d "{\"email\":\"user$n@example.com\",\"password\":\"$password\"}" "$base/api/v1/login" | jq -er .token) ||
      die "user$n@example.com could not log in on $store"
    echo "$token" >>"$work/tokens.txt"
  done
  local meta
  meta=$(curl -fsS --max-time 60 -H 'Accept: application/json' "$base/api/v1/posts" | jq -c .meta) ||
    die "GET /api/v1/posts failed on $store"
  last_page=$(jq -er .last_page <<<"$meta")
  published=$(jq -er .total <<<"$meta")
  local word
  searched='{}'
  for word in "${search_words[@]}"; do
    local n
    # A search of a million titles may take a while before anything is
    # kept.
    n=$(curl -fsS --max-time 120 -H 'Accept: application/json' "$base/api/v1/posts?search=$(uri "$word")" | jq -er .meta.total) ||
      die "GET /api/v1/posts?search=$word failed on $store"
    searched=$(jq -c --arg w "$word" --argjson n "$n" '. + {($w): $n}' <<<"$searched")
  done
  # One request of each generated kind, so that a harness mistake stops the
  # run here rather than showing up as non-2xx answers later.
  local cursor id
  cursor=$(head -n 1 "$work/cursors.txt")
  id=$(head -n 1 "$work/ids.txt")
  curl -fsS -o /dev/null --max-time 60 -H "Authorization: Bearer $(head -n 1 "$work/tokens.txt")" \
    "$base/api/v2/posts?cursor=$cursor" || die "GET /api/v2/posts?cursor=$cursor failed on $store"
  curl -fsS -o /dev/null --max-time 60 "$base/api/v1/posts/$id" || die "GET /api/v1/posts/$id failed on $store"
  curl -fsS -o /dev/null --max-time 60 "$base/bench/ceiling" || die "GET /bench/ceiling failed on $store"
  stop_server
  say "$store: $published published posts, $last_page pages of 15, matches of each search: $searched"
}

# --- one scenario -------------------------------------------------------------

# start_writer creates a published post a second through the API, with the
# first token user's token, until stop_writer: the background writes of the
# cached scenarios, each of which evicts every cached list on the replica.
start_writer() {
  local log=$1 token
  token=$(head -n 1 "$work/tokens.txt")
  (
    n=0
    while :; do
      n=$((n + 1))
      curl -s -o /dev/null -w '%{http_code}\n' --max-time 5 -H 'Content-Type: application/json' -H 'Accept: application/json' \
        -H "Authorization: Bearer $token" -d "{\"title\":\"Background write $n\",\"body\":\"B\",\"status\":\"published\"}" \
        "$base/api/v1/posts" >>"$log" || true
      sleep 1
    done
  ) &
  writer_pid=$!
}


# scenario restarts the server for every scenario, so that the peak RSS
# the kernel keeps (VmHWM, which cannot be reset) is the scenario's own,
# warm-up included.
scenario() {
  local store=$1 url=$2 name=$3
  local log=$work/server-$store-$name${search_label:+-$search_label}.log
  # wrk waits longer than the server's REQUEST_TIMEOUT (10 s), so that a
  # request the server gives up on counts as the 503 it answers.
  local timeout=15 warm_conns=$connections extra=()
  if [[ $name == login ]]; then
    # A login waits for the hashes of all the connections ahead of it,
    # connections x check time / cores: 6 s at cost 12 on two cores, and
    # more when anything else runs, too close to the default REQUEST_TIMEOUT.
    # And a warm-up at full concurrency would leave seconds of hashing
    # running into the measured run.
    timeout=60
    extra=(REQUEST_TIMEOUT=60s)
    warm_conns=$threads
  elif [[ $name == list-deep || $name == list-search || $name == v2-search ]]; then
    # A deep page walks the index up to its offset, and SQLite's search
    # reads every title: on a million posts, about a second of CPU each.
    # With 50 connections queued on two cores, a request waits for the 49
    # ahead of it, longer than the default REQUEST_TIMEOUT; the run measures
    # the rate and the wait, not the timeout.
    timeout=60
    extra=(REQUEST_TIMEOUT=60s)
  fi
  if ((cache_off)) || [[ $name != list-cached && $name != show-cached && $name != list-token ]]; then
    extra+=(HTTP_CACHE_MAX_BYTES=0)
  fi
  wait_quiet "$store/$name"

  start_server "$url" "$log" "${extra[@]}"
  [[ $name != *-cached ]] || start_writer "$work/writer-$store-$name.log"
  export BENCH_DATA=$work BENCH_LUA=$root/bench BENCH_THREADS=$threads \
    BENCH_LAST_PAGE=$last_page BENCH_SEARCH_WORD=$(uri "$search_word") BENCH_USERS=$users \
    BENCH_LOGIN_FIRST=$((token_users + 1)) BENCH_PASSWORD=$password \
    BENCH_HASH_MS=$hash_ms BENCH_CORES=$cores
  if ((warmup > 0)); then
    wrk_run "$name" "$warmup" "$warm_conns" "$work/wrk-$store-$name-warmup.txt" "$timeout"
  fi

  local s0 b0 t0 s1 b1 t1 q0=0 q1=0
  s0=$(ticks "$server_pid")
  [[ -z $bouncer_pid ]] || q0=$(ticks "$bouncer_pid")
  pg_ticks >"$work/pg-before"
  read -r b0 t0 < <(machine_ticks)
  children_cpu "$work/children-before"
  if ((profile)); then
    mkdir -p "$profile_dir"
    curl -s --max-time $((duration + 30)) -o "$profile_dir/$store-$name.pprof" \
      "http://127.0.0.1:$pprof_port/debug/pprof/profile?seconds=$((duration > 2 ? duration - 1 : 1))" &
    profile_pid=$!
  fi
  wrk_run "$name" "$duration" "$connections" "$work/wrk-$store-$name.txt" "$timeout"
  local result=$wrk_result
  children_cpu "$work/children-after"
  s1=$(ticks "$server_pid")
  [[ -z $bouncer_pid ]] || q1=$(ticks "$bouncer_pid")
  pg_ticks >"$work/pg-after"
  read -r b1 t1 < <(machine_ticks)
  if [[ -n $profile_pid ]]; then
    wait "$profile_pid" || say "no CPU profile for $store/$name: does the server support PPROF_ADDR?"
    profile_pid=
  fi
  kill -0 "$server_pid" 2>/dev/null || die "the server died during $store/$name; see $log"
  local hwm rss
  hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$server_pid/status")
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$server_pid/status")
  stop_writer
  stop_server
  [[ $name != *-cached ]] || say "$store/$name: $(grep -c '^201$' "$work/writer-$store-$name.log" || true) posts created in the background"
  if grep -q '"level":"ERROR"' "$log"; then
    say "$store/$name: the server logged errors:"
    grep '"level":"ERROR"' "$log" | head -n 3 >&2
  fi

  jq -c --arg store "$store" --arg scenario "$name" --argjson hwm "$hwm" --argjson rss "$rss" \
    --argjson server "$((s1 - s0))" \
    --argjson pooler "$((q1 - q0))" \
    --argjson pgticks "$(pg_delta "$work/pg-before" "$work/pg-after")" --argjson busy "$((b1 - b0))" --argjson total "$((t1 - t0))" \
    --argjson hz "$clk_tck" --argjson cores "$cores" --argjson before "$busy" \
    --argjson client "$(awk 'NR == FNR {a = $1; next} {print $1 - a}' "$work/children-before" "$work/children-after")" \
    --argjson errors_logged "$(grep -c '"level":"ERROR"' "$log" || true)" '
      {server_pct: ($server / $hz / .seconds * 100 | round),
       postgres_pct: (if $store != "sqlite" then (($pgticks + $pooler) / $hz / .seconds * 100 | round) else 0 end),
       pooler_pct: ($pooler / $hz / .seconds * 100 | round),
       wrk_pct: ($client / .seconds * 100 | round),
       machine_pct: ($busy / $total * 100 * $cores | round),
       machine_busy_before_pct: ($before * $cores)} as $cpu
      | . + {store: $store, scenario: $scenario,
           peak_rss_mib: ($hwm / 1024 | . * 10 | round / 10),
           end_rss_mib: ($rss / 1024 | . * 10 | round / 10),
           cpu: ($cpu + {other_pct: ([$cpu.machine_pct - $cpu.server_pct - $cpu.postgres_pct - $cpu.wrk_pct, 0] | max)}),
           server_errors_logged: $errors_logged}' <<<"$result" >"$work/attempt.json"
  jq -r '"\(.store)/\(.scenario): \(.rps) req/s, p50 \(.p50_ms) ms, p99 \(.p99_ms) ms, peak RSS \(.peak_rss_mib) MiB, non-2xx \(.non2xx), socket errors \(.socket_errors | add), CPU server \(.cpu.server_pct)% postgres \(.cpu.postgres_pct)% wrk \(.cpu.wrk_pct)% other \(.cpu.other_pct)% of \(100 * '"$cores"')%"' \
    "$work/attempt.json" >&2
}

# measure runs a scenario, and again up to BENCH_RETRIES times while other
# work on the machine disturbs it, and keeps the least disturbed run.
# sse_scenario runs sse-idle or sse-fanout of bench/events against a fresh
# server whose stream caps are off, and records its BENCH_RESULT.
sse_scenario() {
  local store=$1 url=$2 name=$3
  local log=$work/server-$store-$name.log out=$work/events-$store-$name.txt
  wait_quiet "$store/$name"
  start_server "$url" "$log" EVENTS_MAX_STREAMS_PER_TOKEN=0 EVENTS_MAX_STREAMS_PER_ADDRESS=0 HTTP_CACHE_MAX_BYTES=0
  local rc=0
  in_background "$out" timeout -k 5 $((sse_seconds + 300)) "$work/events" -base "$base" -pid "$server_pid" \
    -subscribers "$sse_streams" -rate "$sse_rate" -duration "${sse_seconds}s" "$name" || rc=$?
  local result
  result=$(sed -n 's/^BENCH_RESULT //p' "$out")
  if ((rc != 0)) || [[ -z $result ]]; then
    cat "$out" >&2
    die "bench/events failed on $store/$name (exit $rc)"
  fi
  kill -0 "$server_pid" 2>/dev/null || die "the server died during $store/$name; see $log"
  stop_server
  grep -v '^BENCH_RESULT' "$out" >&2 || true
  jq -c --arg store "$store" --argjson before "$busy" --argjson cores "$cores" \
    '. + {store: $store, machine_busy_before_pct: ($before * $cores)}' <<<"$result" >>"$work/results.jsonl"
}

measure() {
  local store=$1 url=$2 name=$3 attempt other
  if [[ $name == sse-* ]]; then
    sse_scenario "$store" "$url" "$name"
    return
  fi
  : >"$work/attempts.jsonl"
  for ((attempt = 0; attempt <= retries; attempt++)); do
    scenario "$store" "$url" "$name"
    cat "$work/attempt.json" >>"$work/attempts.jsonl"
    other=$(jq -r 'if .cpu.machine_busy_before_pct >= 30 then 100 else .cpu.other_pct end' "$work/attempt.json")
    ((other >= 25)) || break
    ((attempt == retries)) || say "$store/$name: other work on the machine disturbed the run; measuring again"
  done
  jq -sc --arg search "$search_label" --arg class "${search_class:-}" --argjson searched "$searched" \
    'min_by(.cpu.other_pct + (if .cpu.machine_busy_before_pct >= 30 then 1000 else 0 end)) + {runs: length}
    + (if $search != "" then {search: $search, search_total: $searched[$search]} else {} end)
    + (if $class != "" then {search_class: $class} else {} end)' \
    "$work/attempts.jsonl" >>"$work/results.jsonl"
}

# uri encodes a search for a query string.
uri() {
  jq -rn --arg s "$1" '$s | @uri'
}

# --- the stores ---------------------------------------------------------------

profile_dir=$root/bench/cache/profiles/$today-$posts
: >"$work/results.jsonl"
: >"$work/stores.jsonl"
for store in "${store_list[@]}"; do
  if [[ $store == sqlite* ]]; then
    started=$(date +%s)
    sqlite_seeded
    url=sqlite://$db
    sample sqlite "$db"
    if [[ $store == sqlite-backup ]]; then
      start_s3
      store_vars=(BACKUP_URL=s3://bench/inkwell AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench-secret
        AWS_DEFAULT_REGION=us-east-1 AWS_ENDPOINT="http://127.0.0.1:$((port + 5))" AWS_USE_PATH_STYLE_ENDPOINT=true)
    fi
  else
    pg_isready -q -h 127.0.0.1 -p 5432 || die "PostgreSQL does not answer on 127.0.0.1:5432 (make services starts it)"
    started=$(date +%s)
    pg_port=5432
    if own_primary "$store"; then
      start_primary
      pg_port=$((port + 3))
      pg=("${pg_direct[@]/5432/$pg_port}")
      pg_ports=("$pg_port")
      [[ $store == primary ]] || pg_ports+=($((port + 4)))
    fi
    if ((keep_pg)) && ! own_primary "$store"; then
      # Named, as the SQLite file is, by what decides its content.
      pg_db=inkwell_bench_keep_${posts}_cost${cost}_$(cat sql/postgres/migrations/*.sql adapters/postgres/seed.go \
        demo/demo.go demo/stream.go demo/words.go | sha256sum | cut -c1-12)
    else
      pg_db=inkwell_bench_$$
    fi
    url="postgres://postgres@127.0.0.1:$pg_port/$pg_db?sslmode=disable"
    if ((keep_pg)) && ! own_primary "$store" && [[ $("${pg[@]}" -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = '$pg_db'") == 1 ]]; then
      say "reusing PostgreSQL database $pg_db (drop it to seed again)"
      pg_kept=1
    else
      # A kept database that a failed seed left half made is seeded again.
      "${pg[@]}" -d postgres -c "DROP DATABASE IF EXISTS \"$pg_db\" WITH (FORCE)" >/dev/null
      "${pg[@]}" -d postgres -c "CREATE DATABASE \"$pg_db\"" >/dev/null
      say "seeding PostgreSQL ($posts posts) into $pg_db"
      seed "$url" "$work/seed-postgres.log"
      ((keep_pg == 0)) || own_primary "$store" || pg_kept=1
    fi
    if [[ $store == standby ]]; then
      start_standby
      store_vars=(DATABASE_READ_URL="postgres://postgres@127.0.0.1:$((port + 4))/$pg_db?sslmode=disable")
    fi
    sample postgres "$pg_db"
    if [[ $store == pgbouncer ]]; then
      start_bouncer
      store_vars=(DATABASE_DIRECT_URL="$url")
      url="postgres://postgres@127.0.0.1:$((port + 2))/$pg_db?sslmode=disable"
    fi
  fi
  [[ -n ${BENCH_SEARCH_WORDS:-} || ${#search_words[@]} -gt 0 ]] || draw_searches "$store" "${pg_db:-$db}"
  prepare "$store" "$url"
  [[ $store != sqlite-backup ]] || settle_backup "$url"
  jq -nc --arg store "$store" --argjson published "$published" --argjson last_page "$last_page" \
    --argjson searched "$searched" --argjson setup_s $(($(date +%s) - started)) \
    '{store: $store, published_posts: $published, last_page: $last_page, search_matches: $searched, setup_seconds: $setup_s}' \
    >>"$work/stores.jsonl"
  for name in "${run_order[@]}"; do
    selected "$name" || continue
    if [[ $name == list-search ]]; then
      for i in "${!search_words[@]}"; do
        search_word=${search_words[$i]}
        search_label=$search_word search_class=${search_classes[$i]}
        measure "$store" "$url" "$name"
      done
      search_class=
      search_label=
      search_word=${search_words[0]}
      continue
    fi
    measure "$store" "$url" "$name"
  done
  stop_bouncer
  stop_s3
  store_vars=()
  drop_db
  stop_pair
  pg=("${pg_direct[@]}")
  pg_ports=(5432)
  pg_kept=
done

# --- the report ---------------------------------------------------------------

# Of the searches drawn by class, each store's slowest of each class stands
# for the class; the others go with it as draws.
jq -sc '
  (map(select(.search_class == null)) | .[]),
  (map(select(.search_class != null)) | group_by([.store, .search_class]) | .[]
   | (min_by(.rps) + {draws: map({search, search_total, rps})}))' \
  "$work/results.jsonl" >"$work/results-classes.jsonl"
mv "$work/results-classes.jsonl" "$work/results.jsonl"

mkdir -p bench/results
stem=bench/results/$today-$posts
n=2
while [[ -e $stem.json ]]; do
  stem=bench/results/$today-$posts-$n
  n=$((n + 1))
done

pg_version=$("${pg[@]}" -d postgres -Atc 'SHOW server_version' 2>/dev/null || echo none)
# The figure at 100,000 posts that list is held to at larger sizes.
reference=$(ls -1t bench/results/*-100000.json bench/results/*-100000-[0-9]*.json 2>/dev/null | head -n 1 || true)
ref_json='[]'
[[ $posts == 100000 || -z $reference ]] || ref_json=$(jq -c '.results' "$reference")

jq -n --slurpfile results "$work/results.jsonl" --slurpfile stores "$work/stores.jsonl" \
  --argjson ref "$ref_json" --arg reference "${reference:-}" \
  --arg date "$today" --arg command "$command" --arg commit "$commit" \
  --arg cpu "$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)" \
  --argjson cores "$cores" --argjson mem "$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)" \
  --arg kernel "$(uname -r)" --arg go "$(go env GOVERSION)" --arg wrk "$(wrk -v 2>&1 | head -n 1 | awk '{print $2}')" \
  --arg postgres "$pg_version" --arg sqlite "$(go list -m -f '{{.Path}} {{.Version}}' modernc.org/sqlite)" \
  --argjson posts "$posts" --argjson users "$users" --argjson tags "$tags" --argjson comments "$comments" \
  --argjson duration "$duration" --argjson warmup "$warmup" --argjson connections "$connections" \
  --argjson threads "$threads" --argjson cost "$cost" --argjson hash_ms "$hash_ms" \
  --argjson hash_parallel "$hash_parallel_per_s" --argjson ceiling "$login_ceiling" '
  # The search and deep-page targets also hold as a share of the same
  # store'"'"'s /healthz rate in the same run, for a machine others share.
  def share($r; $p):
    ([$results[] | select(.store == $r.store and .scenario == "healthz")] | first) as $h
    | if $h then {or_min: ($h.rps * $p), note: "\($p * 100)% of /healthz"} else {} end;
  # The cached reads are held to a quarter of /healthz in the same run.
  def cached($r):
    ([$results[] | select(.store == $r.store and .scenario == "healthz")] | first) as $h
    | if $h then {min: ($h.rps * 0.25), note: "25% of /healthz"} else {note: "25% of /healthz (not run)"} end;
  def target($r):
    ($ref | map(select(.store == $r.store and .scenario == "list")) | first) as $list100k
    | {list: (if $posts == 100000 then {min: 5000}
              elif $posts < 100000 then {note: "set at 100,000 posts and more"}
              elif $list100k then {min: ($list100k.rps * 0.9), note: "90% of \($list100k.rps) at 100,000 posts"}
              else {note: "90% of the figure at 100,000 posts (no such result here)"} end),
       "list-search": ({min: 500} + share($r; 0.005)), "list-deep": ({min: 200} + share($r; 0.002)),
       "v2-search": ({min: 500} + share($r; 0.005)),
       "v2-cursor": {min: 5000}, show: {min: 8000},
       "list-cached": cached($r), "show-cached": cached($r), me: {min: 12000}, create: {min: 2500},
       login: (if $ceiling > 0 then {min: ($ceiling * 0.9), note: "90% of \($ceiling * 10 | round / 10) (cores / bcrypt check)"} else {} end)
      }[$r.scenario] // {};
  {date: $date, command: $command, commit: $commit,
   machine: {cpu: $cpu, cores: $cores, memory_mib: $mem, kernel: $kernel},
   versions: {go: $go, wrk: $wrk, postgres: $postgres, sqlite: $sqlite},
   data: {posts: $posts, users: $users, tags: $tags, comments: $comments},
   run: {duration_s: $duration, warmup_s: $warmup, connections: $connections, threads: $threads,
         server_restarted_per_scenario: true},
   bcrypt: {cost: $cost, check_ms: $hash_ms, parallel_checks_per_s: $hash_parallel, login_ceiling_rps: $ceiling},
   stores: $stores,
   results: [$results[] | . as $r | target($r) as $t
     | if .scenario == "sse-idle" then . + {target: {max_kb_per_stream: 10}, ok: (.failed_streams == 0 and .kb_per_stream <= 10)}
       elif .scenario == "sse-fanout" then . + {target: {max_delay_p99_ms: 250, max_create_p99_ms: 250, every_delivery: true},
         ok: (.failed_streams == 0 and .deliveries == .expected_deliveries and (.failed_creates // 0) == 0
              and .delay_p99_ms <= 250 and .create_p99_ms <= 250)}
       else . + {target: $t,
            ok: ((($t.min // null) == null or (.steady_rps // .rps) >= $t.min
                  or (($t.or_min // null) != null and .rps >= $t.or_min)) and .peak_rss_mib * 1048576 <= 150e6
                 and .non2xx == 0 and (.socket_errors | add) == 0)} end]}' >"$stem.json.tmp"
mv "$stem.json.tmp" "$stem.json"

jq -r --argjson order "$(printf '%s\n' "${report_order[@]}" | jq -R . | jq -sc .)" '
  def n: tostring | if test("^[0-9]+$") then (. as $s | [range(length; 0; -3)] | map($s[([. - 3, 0] | max):.]) | reverse | join(",")) else . end;
  def r0: round | n;
  def r1: (. * 10 | round) as $x | "\($x / 10 | floor | n).\($x % 10)";
  def fig: if . >= 100 then r0 else r1 end;
  "# Inkwell benchmark, \(.date), \(.data.posts | n) posts",
  "",
  "Command: `\(.command)` at \(.commit).",
  "",
  "Data: \(.data.users | n) users, \(.data.tags) tags, \(.data.posts | n) posts, \(.data.comments | n) comments; "
    + ([.stores[] | "\(.store): \(.published_posts | n) published, \(.last_page | n) pages, titles matching \([.search_matches | to_entries[] | "\"\(.key)\" \(.value | n)"] | join(", ")), set up in \(.setup_seconds) s"] | join("; ")) + ".",
  "",
  "Machine: \(.machine.cpu), \(.machine.cores) cores, \(.machine.memory_mib | n) MiB, Linux \(.machine.kernel); \(.versions.go), wrk \(.versions.wrk), PostgreSQL \(.versions.postgres), \(.versions.sqlite). Server and wrk share the machine.",
  "",
  (if any(.results[]; .scenario | startswith("sse-") | not) then
  "Each scenario: \(.run.warmup_s) s warm-up, then `wrk -t\(.run.threads) -c\(.run.connections) -d\(.run.duration_s)s --latency`; the server is restarted for every scenario, so peak RSS (VmHWM) is that scenario'"'"'s own, warm-up included.",
  (if .bcrypt.check_ms > 0 then "\nbcrypt at cost \(.bcrypt.cost): one check takes \(.bcrypt.check_ms | r0) ms on one core, so \(.machine.cores) cores allow \(.bcrypt.login_ceiling_rps | r1) logins/s (all cores hashing at once measured \(.bcrypt.parallel_checks_per_s | r1) checks/s)." else empty end),
  "",
  "| scenario | store | req/s | p50 ms | p99 ms | peak RSS MiB | non-2xx | socket errors | CPU % server / postgres / wrk / other | target |",
  "|---|---|--:|--:|--:|--:|--:|--:|--:|---|",
  (.results as $rs | $order[] as $s | $rs[] | select(.scenario == $s and (.scenario | startswith("sse-") | not))
    | "| \(.scenario)\(if .search_class then " \(.search_class): slowest of \(.draws | length), \"\(.search)\" (\(.search_total | n))" elif .search then " \"\(.search)\"" else "" end) | \(.store) | \(.rps | fig)\(if .steady_rps then " (steady \(.steady_rps | fig))" else "" end) | \(.p50_ms | r1) | \(.p99_ms | r1) | \(.peak_rss_mib | r1) | \(.non2xx) | \(.socket_errors | add) | \(.cpu.server_pct) / \(.cpu.postgres_pct) / \(.cpu.wrk_pct) / \(.cpu.other_pct)\(if .cpu.machine_busy_before_pct >= 30 or .cpu.other_pct >= 25 then " †" else "" end) | "
      + (if .target.min then "≥ \(.target.min | fig)" + (if .target.or_min then " or ≥ \(.target.or_min | fig)" else "" end)
           + (if .target.note then " (\(.target.note))" else "" end) elif .target.note then .target.note else "reported" end)
      + (if .ok then " ✓" else " ✗" end) + " |"),
  "",
  (if any(.results[]; .steady_rps) then "The steady rate of login counts the answers of the whole seconds after its first round of hashing, when every connection has a request in flight; the target applies to it. " else "" end)
  + "CPU is in % of one core (\(.machine.cores * 100)% is the whole machine): the server process, the PostgreSQL backends of the run (and the PgBouncer process, for pgbouncer), wrk, and everything else. † marks a scenario that other work on the machine disturbed (15% of it busy before the start, or 25% of a core during the run). Every row must also stay within 150 MB (143 MiB) of RSS with no non-2xx answers and no socket errors; ✗ marks a row that misses its target or one of these."
  else empty end),
  ([.results[] | select(.scenario | startswith("sse-"))] as $sse | if ($sse | length) == 0 then empty else
    "",
    "Event streams (`bench/events`, one reader'"'"'s token, stream caps off, the load tool on the same cores): sse-idle opens the streams and reads the server'"'"'s RSS once they idled; sse-fanout then has an author write posts at a steady rate, and counts the deliveries that arrived within 10 s of the last create, with their delay from the create request.",
    "",
    "| scenario | store | streams | KB a stream (RSS growth ÷ streams) | posts | deliveries | delay p50 / p99 / max ms | create p50 / p99 ms | CPU % server / load tool | target |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|---|",
    ($order[] as $s | $sse[] | select(.scenario == $s)
      | "| \(.scenario) | \(.store) | \(.streams - .failed_streams | n)\(if .failed_streams > 0 then " (\(.failed_streams) failed)" else "" end) | \(.kb_per_stream | r1) | "
        + (if .scenario == "sse-fanout" then "\(.posts) | \(.deliveries | n) of \(.expected_deliveries | n) | \(.delay_p50_ms | r1) / \(.delay_p99_ms | r1) / \(.delay_max_ms | r1) | \(.create_p50_ms | r1) / \(.create_p99_ms | r1) | \(.server_cpu_pct | r0) / \(.tool_cpu_pct | r0)\(if .machine_busy_before_pct >= 30 then " †" else "" end) | every delivery, p99 ≤ 250 ms, creates p99 ≤ 250 ms"
           else "– | – | – | – | – | ≤ 10 KB" end)
        + (if .ok then " ✓" else " ✗" end) + " |")
  end)
' "$stem.json" >"$stem.md.tmp"
mv "$stem.md.tmp" "$stem.md"
say "wrote $stem.md and $stem.json"
cat "$stem.md"
