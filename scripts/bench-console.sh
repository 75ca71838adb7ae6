#!/usr/bin/env bash
# Measures the admin console's list pages (users, posts, audit, with their
# searches and the status filter) with wrk against the built server, on
# SQLite and on PostgreSQL in turn, signed in as an admin, and prints a
# Markdown table of each URL's p50 and p99 with the machine's load.
# docs/PERFORMANCE.md describes it; the variables are:
#
#   CONSOLE_STORES       sqlite,postgres (either or both)
#   CONSOLE_USERS        accounts to seed (100000)
#   CONSOLE_POSTS        posts to seed (1000000), with 200 tags and
#                        CONSOLE_POSTS/10 comments
#   CONSOLE_SQLITE       a SQLite file seeded already (by "inkwell seed"
#                        with the same counts) to measure instead of seeding
#                        one; it gains the admin's sessions and audit rows
#   CONSOLE_PG_URL       likewise, a seeded PostgreSQL database
#   CONSOLE_AUDIT        rows the audit log holds before the run (100000):
#                        what is missing is added by SQL, one admin's
#                        unpublishes a second apart, since no seed makes them
#   CONSOLE_DURATION     seconds each URL is measured (15)
#   CONSOLE_WARMUP       seconds of warm-up before it (2)
#   CONSOLE_CONNECTIONS  wrk connections, the concurrent admins (10)
#   CONSOLE_PORT         the server's port on 127.0.0.1 (4200)
#   CONSOLE_BIN          the server binary (bin/inkwell)
#   BCRYPT_COST          the cost users are seeded with and the server runs
#                        at (4: the sign-in is not what is measured)
#
# It sends requests to 127.0.0.1 only: to the server on CONSOLE_PORT and
# to PostgreSQL on 5432 as user postgres, in a scratch database
# inkwell_console_<pid> that it drops at the end, also after a failure or
# an interrupt. Every process it starts is stopped by its pid.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

say() { printf 'bench-console: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

stores=${CONSOLE_STORES:-sqlite,postgres}
users=${CONSOLE_USERS:-100000}
posts=${CONSOLE_POSTS:-1000000}
audit=${CONSOLE_AUDIT:-100000}
duration=${CONSOLE_DURATION:-15}
warmup=${CONSOLE_WARMUP:-2}
connections=${CONSOLE_CONNECTIONS:-10}
port=${CONSOLE_PORT:-4200}
cost=${BCRYPT_COST:-4}
base=http://127.0.0.1:$port
admin=user1@example.com
bin=${CONSOLE_BIN:-$root/bin/inkwell}

# The URLs measured, with what each stands for. The words' shares are those
# of the seeded data at a million posts and 100k accounts (demo).
urls=(
  "/admin/users|users, first page"
  "/admin/users?q=jade+q|users search, rare (34 names)"
  "/admin/users?q=vogel|users search, common (2,036 names)"
  "/admin/users?q=an|users search, very common, 2 letters (20,675)"
  "/admin/users?q=user4242|users search, e-mail fragment (11)"
  "/admin/users?q=example.com|users search, every e-mail (100k)"
  "/admin/users?q=zzzz|users search, no match"
  "/admin/posts|posts, first page"
  "/admin/posts?status=draft|posts, drafts"
  "/admin/posts?q=lazy+snapshot+of|posts search, rare phrase (1 title)"
  "/admin/posts?q=graceful+worker|posts search, two words (262)"
  "/admin/posts?q=inkwell|posts search, 1% (9,953)"
  "/admin/posts?q=journey|posts search, 4% (43,233)"
  "/admin/posts?q=graceful|posts search, 4% (43,561)"
  "/admin/posts?q=inkwell&status=draft|posts search, drafts only"
  "/admin/posts?q=inkwell&page=30|posts search, page 30"
  "/admin/audit|audit log, first page (CONSOLE_AUDIT rows)"
  "/admin/audit?page=1000|audit log, page 1,000"
)

command -v wrk >/dev/null || die "wrk is not installed"
[[ -x $bin ]] || die "build the server first: go build -o bin/inkwell ./cmd/inkwell"

work=$(mktemp -d)
server_pid=
scratch_db=
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [[ -n $scratch_db ]]; then
    psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $scratch_db" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

run_env() {
  local url=$1
  shift
  env -i PATH="$PATH" HOME="$HOME" DATABASE_URL="$url" BCRYPT_COST="$cost" LOG_LEVEL=warn "$@"
}

seed() {
  local url=$1
  say "seeding $users users and $posts posts into $url"
  run_env "$url" "$bin" seed --users "$users" --posts "$posts" --comments $((posts / 10)) --tags 200 \
    >"$work/seed.log" 2>&1 || { tail -n 20 "$work/seed.log" >&2; die "seeding failed"; }
  tail -n 1 "$work/seed.log" >&2
}

# fill_audit adds audit rows by SQL until the log of the store at url
# holds CONSOLE_AUDIT of them.
fill_audit() {
  local store=$1 url=$2 have
  if [[ $store == sqlite ]]; then
    local file=${url#sqlite://}
    have=$(sqlite3 "$file" 'SELECT count(*) FROM admin_audit')
    ((have >= audit)) && return 0
    sqlite3 "$file" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $((audit - have)))
INSERT INTO admin_audit (at, admin_id, admin_email, action, subject_type, subject_id, address)
SELECT (strftime('%s', 'now') - $audit + i) * 1000000, 1, '$admin', 'post.unpublish', 'post', i, '127.0.0.1' FROM n"
  else
    have=$(psql "$url" -XAtc 'SELECT count(*) FROM admin_audit')
    ((have >= audit)) && return 0
    psql "$url" -Xqc "INSERT INTO admin_audit (at, admin_id, admin_email, action, subject_type, subject_id, address)
SELECT now() - make_interval(secs => $audit - i), 1, '$admin', 'post.unpublish', 'post', i, '127.0.0.1'
FROM generate_series(1, $((audit - have))) i" >/dev/null
  fi
  say "$store: the audit log holds $audit rows"
}

start_server() {
  local url=$1
  if curl -s -o /dev/null --max-time 1 "$base/healthz"; then
    die "something already answers on $base; set CONSOLE_PORT to a free port"
  fi
  # env itself, not a function, runs in the background: $! is then the
  # server's pid (env execs it), which stop_server ends.
  env -i PATH="$PATH" HOME="$HOME" DATABASE_URL="$url" BCRYPT_COST="$cost" LOG_LEVEL=warn \
    HOST=127.0.0.1 PORT="$port" APP_ENV=production \
    APP_KEY="base64:$(head -c 32 /dev/urandom | base64 -w 0)" LOGIN_MAX_ATTEMPTS=0 \
    STORAGE_DIR="$work/storage" "$bin" serve >>"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do
    curl -fs -o /dev/null --max-time 1 "$base/readyz" && return 0
    kill -0 "$server_pid" 2>/dev/null || { tail -n 20 "$work/server.log" >&2; die "the server stopped while starting"; }
    sleep 0.1
  done
  die "the server was not ready after 30 s"
}

stop_server() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

# sign_in prints the Cookie header of an admin console session: the form's
# session and CSRF token first, then the session the sign-in gives.
sign_in() {
  local form cookie token
  form=$(curl -s -D "$work/h1" "$base/admin/login")
  cookie=$(grep -i '^set-cookie: inkwell_admin=' "$work/h1" | sed -E 's/^[^:]*: (inkwell_admin=[^;]*).*/\1/' | tr -d '\r')
  token=$(printf '%s' "$form" | grep -o 'name="_token" value="[^"]*"' | sed -E 's/.*value="([^"]*)"/\1/')
  [[ -n $cookie && -n $token ]] || die "no session or CSRF token on the sign-in form"
  curl -s -o /dev/null -D "$work/h2" -H "Cookie: $cookie" -H "Origin: $base" -H "Sec-Fetch-Site: same-origin" \
    --data-urlencode "email=$admin" --data-urlencode "password=password" --data-urlencode "_token=$token" \
    "$base/admin/login"
  cookie=$(grep -i '^set-cookie: inkwell_admin=' "$work/h2" | sed -E 's/^[^:]*: (inkwell_admin=[^;]*).*/\1/' | tr -d '\r')
  [[ -n $cookie ]] || die "the sign-in gave no session"
  printf '%s' "$cookie"
}

# ms converts a wrk latency (123.45us, 1.23ms, 1.02s) to milliseconds.
ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0
    if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /m$/) n *= 60000; else if (v ~ /s$/) n *= 1000
    printf "%.1f", n }'
}

measure_store() {
  local store=$1 url
  case $store in
  sqlite)
    if [[ -n ${CONSOLE_SQLITE:-} ]]; then
      url="sqlite://$CONSOLE_SQLITE"
    else
      url="sqlite://$work/console.db"
      seed "$url"
    fi
    ;;
  postgres)
    if [[ -n ${CONSOLE_PG_URL:-} ]]; then
      url=$CONSOLE_PG_URL
    else
      scratch_db=inkwell_console_$$
      psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $scratch_db" >/dev/null
      url="postgres://postgres@127.0.0.1:5432/$scratch_db?sslmode=disable"
      seed "$url"
    fi
    ;;
  *) die "unknown store $store" ;;
  esac
  run_env "$url" "$bin" admin grant --email "$admin" >/dev/null
  fill_audit "$store" "$url"
  start_server "$url"
  local cookie
  cookie=$(sign_in)
  printf '\n### %s\n\n' "$store"
  printf 'load before: %s\n\n' "$(uptime | sed 's/.*load average/load average/')"
  printf '| URL | what | pager | p50 ms | p99 ms | req/s | errors, timeouts |\n|---|---|---|---:|---:|---:|---:|\n'
  local entry path what code pager out p50 p99 rps bad
  for entry in "${urls[@]}"; do
    path=${entry%%|*}
    what=${entry#*|}
    # The pager says what the page counted; a page that fails (a server
    # too slow for its request timeout answers 503) says its status.
    code=$(curl -s -o "$work/page.html" -w '%{http_code}' -H "Cookie: $cookie" "$base$path")
    pager=$(grep -o '<nav class="pager"[^>]*><span>[^<]*' "$work/page.html" | sed 's/.*<span>//' || true)
    [[ $code == 200 ]] || pager="answered $code"
    wrk -t2 -c"$connections" -d"${warmup}s" -H "Cookie: $cookie" "$base$path" >/dev/null
    out=$(wrk -t2 -c"$connections" -d"${duration}s" --timeout 10s --latency -H "Cookie: $cookie" "$base$path")
    # Requests over wrk's timeout (10 s) or answered with an error are
    # counted in the last column rather than stop the run.
    bad=$(printf '%s\n' "$out" | awk '/Non-2xx/ {n += $NF} /Socket errors/ {gsub(",", ""); n += $4 + $6 + $8 + $10} END {print n + 0}')
    p50=$(ms "$(printf '%s\n' "$out" | awk '$1 == "50%" {print $2}')")
    p99=$(ms "$(printf '%s\n' "$out" | awk '$1 == "99%" {print $2}')")
    rps=$(printf '%s\n' "$out" | awk '/Requests\/sec/ {printf "%.0f", $2}')
    printf '| `%s` | %s | %s | %s | %s | %s | %s |\n' "$path" "$what" "$pager" "$p50" "$p99" "$rps" "$bad"
  done
  printf '\nload after: %s\n' "$(uptime | sed 's/.*load average/load average/')"
  stop_server
}

printf '## Console pages, %s users, %s posts, %s connections, %ss a URL\n' "$users" "$posts" "$connections" "$duration"
printf '\n%s, %s cores, %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(nproc)" "$(git rev-parse --short HEAD)"
IFS=, read -ra list <<<"$stores"
for s in "${list[@]}"; do
  measure_store "$s"
done
