#!/usr/bin/env bash
# Measures the container image on this machine: the time of a warm image
# build (the binary already compiled), the image's size, the time from
# podman run to a ready /readyz (on an empty volume, which migrates, and on
# a seeded one), and the throughput of list (GET /api/v1/posts) and create
# (POST /api/v1/posts) through the container against the same binary run
# directly, on SQLite, alternating the two so that the machine's other load
# falls on both alike, and running the binary in a CPU cgroup beside the
# container's: podman puts a container in a cgroup of its own, which on a
# busy machine gets the CPU share of one task against every process in the
# root group, so the binary outside would get more CPU than the container
# rather than run the same. Needs podman (make services), wrk, curl and jq;
# run it as root (rootful podman).
#
#   BENCH_DURATION (10) seconds per wrk run, BENCH_CONNECTIONS (20),
#   BENCH_ROUNDS (3) alternations, BENCH_POSTS (5000) seeded posts,
#   BENCH_STARTS (5) starts timed per volume.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${BENCH_DURATION:-10}
conns=${BENCH_CONNECTIONS:-20}
rounds=${BENCH_ROUNDS:-3}
posts=${BENCH_POSTS:-5000}
starts=${BENCH_STARTS:-5}
image=localhost/inkwell-bench:latest
bin=bin/image/rootfs/usr/local/bin/inkwell
podman() { bash scripts/podman.sh "$@"; }
now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc; }

work=$(mktemp -d)
plain_pid=
names=()
sibling=
cleanup() {
  if [[ -n $plain_pid ]]; then kill "$plain_pid" 2>/dev/null || true; wait "$plain_pid" 2>/dev/null || true; fi
  [[ -z $sibling ]] || rmdir "$sibling" 2>/dev/null || true
  for n in "${names[@]}"; do podman rm -f -t 0 "$n" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# ready waits for a 200 from /readyz on port $1.
ready() {
  for _ in $(seq 1 3000); do
    curl -sf -o /dev/null "http://127.0.0.1:$1/readyz" && return 0
    sleep 0.01
  done
  echo "bench-image: nothing ready on port $1" >&2
  return 1
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

t0=$(now)
bash scripts/image.sh "$image" >/dev/null
echo "image build (scripts/image.sh, warm Go cache): $(since "$t0") s"
echo "image size: $(podman image inspect --format '{{.Size}}' "$image") bytes"

key=$("$bin" key generate)
env=(APP_ENV=production "APP_KEY=$key" BCRYPT_COST=4 LOG_LEVEL=warn HOST=127.0.0.1)

# run_container NAME VOLUME PORT starts the image and prints nothing.
run_container() {
  names+=("$1")
  local flags=()
  for kv in "${env[@]}" "PORT=$3"; do flags+=(--env "$kv"); done
  podman run --detach --name "$1" --read-only --volume "$2:/data" "${flags[@]}" "$image" >/dev/null 2>&1
}

mkdir -p "$work/seed"
env "${env[@]}" DATABASE_URL="sqlite://$work/seed/inkwell.db" "$bin" seed --posts "$posts" --users 20 >/dev/null 2>&1
for d in plain container; do cp -a "$work/seed" "$work/$d"; done
chown -R 65532:65532 "$work/container"

for kind in empty seeded; do
  times=()
  for i in $(seq 1 "$starts"); do
    vol="$work/start-$kind-$i"
    if [[ $kind == empty ]]; then mkdir "$vol"; else cp -a "$work/container" "$vol"; fi
    chown -R 65532:65532 "$vol"
    port=$(free_port)
    t0=$(now)
    run_container "start-$kind-$i-$$" "$vol" "$port"
    ready "$port"
    times+=("$(since "$t0")")
    podman rm -f -t 0 "start-$kind-$i-$$" >/dev/null 2>&1
  done
  echo "podman run to ready, $kind volume: ${times[*]} s"
done
times=()
for i in $(seq 1 "$starts"); do
  port=$(free_port)
  t0=$(now)
  env "${env[@]}" PORT="$port" DATABASE_URL="sqlite://$work/plain/inkwell.db" STORAGE_DIR="$work/plain/storage" "$bin" 2>/dev/null &
  pid=$!
  ready "$port"
  times+=("$(since "$t0")")
  kill "$pid"; wait "$pid" || true
done
echo "plain binary start to ready, seeded: ${times[*]} s"

container_port=$(free_port)
run_container "bench-$$" "$work/container" "$container_port"
ready "$container_port"

# The container's CPU cgroup (cgroup v1's cpu controller, or v2's single
# tree), and a sibling of it for the binary.
cpid=$(podman inspect --format '{{.State.Pid}}' "bench-$$")
if cg=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ {print $3}' "/proc/$cpid/cgroup") && [[ -n $cg ]]; then
  sibling=/sys/fs/cgroup/cpu$(dirname "$cg")/inkwell-bench-plain-$$
else
  sibling=/sys/fs/cgroup$(dirname "$(awk -F: '$1 == 0 {print $3}' "/proc/$cpid/cgroup")")/inkwell-bench-plain-$$
fi
mkdir "$sibling"
echo "the binary runs in $sibling, beside the container's cgroup"
plain_port=$(free_port)
(
  echo "$BASHPID" >"$sibling/cgroup.procs"
  exec env "${env[@]}" PORT="$plain_port" DATABASE_URL="sqlite://$work/plain/inkwell.db" STORAGE_DIR="$work/plain/storage" "$bin" 2>/dev/null
) &
plain_pid=$!
ready "$plain_port"

token() {
  curl -sf -H 'Accept: application/json' -H 'Content-Type: application/json' \
    -d '{"email":"user1@example.com","password":"password"}' "http://127.0.0.1:$1/api/v1/login" | jq -r .token
}
cat >"$work/create.lua" <<'LUA'
local n = 0
local token = os.getenv("TOKEN")
function request()
  n = n + 1
  local body = string.format('{"title":"Image bench %d %d","body":"A post of a benchmark.","status":"published"}', math.random(1, 1e9), n)
  return wrk.format("POST", "/api/v1/posts", {["Accept"] = "application/json", ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}, body)
end
LUA
declare -A tokens=([plain]=$(token "$plain_port") [container]=$(token "$container_port"))
declare -A ports=([plain]=$plain_port [container]=$container_port)

rps() { awk '/Requests\/sec/ {print $2}'; }
for round in $(seq 1 "$rounds"); do
  for target in plain container; do
    url="http://127.0.0.1:${ports[$target]}"
    list=$(wrk -t2 -c"$conns" -d"${duration}s" -H 'Accept: application/json' "$url/api/v1/posts" | rps)
    create=$(TOKEN=${tokens[$target]} wrk -t2 -c"$conns" -d"${duration}s" -s "$work/create.lua" "$url" | rps)
    echo "round $round $target: list $list req/s, create $create req/s"
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
