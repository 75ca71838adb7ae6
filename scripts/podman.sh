#!/usr/bin/env bash
# podman as make image and the image tests run it: without a daemon,
# systemd or cgroup delegation, which takes the vfs storage driver, runc and
# cgroupfs. run and create also get the limits and the network the tests
# want: the host's network, so that a container listening on 127.0.0.1 is
# reachable from the host and nothing else is, and open-file and process
# limits of their own rather than whatever the calling shell has.
#
# These flags are kept here and nowhere else; the tests call this script.
#   bash scripts/podman.sh build …    bash scripts/podman.sh run …
set -euo pipefail

global=(--storage-driver vfs --runtime runc --cgroup-manager cgroupfs)
run=(--ulimit nofile=20000:20000 --ulimit nproc=4096:4096 --network host)

case ${1:-} in
  run | create)
    cmd=$1
    shift
    exec podman "${global[@]}" "$cmd" "${run[@]}" "$@"
    ;;
  *) exec podman "${global[@]}" "$@" ;;
esac
