#!/usr/bin/env bash
# Builds Inkwell's container image from the Containerfile with podman
# (scripts/podman.sh), pulling no base image: it stages the build context in
# bin/image (git-ignored) with the static binary, stamped as make build
# stamps it, the build machine's CA bundle and time zone data, and the
# passwd and group lines of nonroot (65532), and builds FROM scratch.
#
#   bash scripts/image.sh [TAG...]
#
# tags the image inkwell:$VERSION and inkwell:latest when no TAG is given.
# With STAGE_ONLY=1 it stops once the context is staged, for another
# builder: docker build -f Containerfile bin/image (make image-context).
# VERSION defaults to git describe (the commit's tag, else its short hash,
# with -dirty for uncommitted changes) and REVISION to the commit's hash.
# The image's ID is the last line of standard output.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
revision=${REVISION:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
ca=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
zoneinfo=${ZONEINFO_DIR:-/usr/share/zoneinfo}
for f in "$ca" "$zoneinfo/UTC"; do
  [[ -e $f ]] || { echo "image: $f is missing; install ca-certificates and tzdata (apt-get install ca-certificates tzdata)" >&2; exit 1; }
done

ctx=bin/image
rm -rf "$ctx"
mkdir -p "$ctx/rootfs/etc/ssl/certs" "$ctx/rootfs/usr/share" "$ctx/rootfs/usr/local/bin" "$ctx/data"

# The flags of make build (-buildvcs=auto), static (no cgo: SQLite is pure
# Go), without build paths or symbols.
CGO_ENABLED=0 "$GO" build -buildvcs=auto -trimpath -ldflags='-s -w' -o "$ctx/rootfs/usr/local/bin/inkwell" ./cmd/inkwell

cp "$ca" "$ctx/rootfs/etc/ssl/certs/ca-certificates.crt"
# The zone files with their links; right/ (leap seconds) is of no use to Go.
cp -a "$zoneinfo" "$ctx/rootfs/usr/share/zoneinfo"
rm -rf "$ctx/rootfs/usr/share/zoneinfo/right"
printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' 'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' >"$ctx/rootfs/etc/passwd"
printf '%s\n' 'root:x:0:' 'nonroot:x:65532:' >"$ctx/rootfs/etc/group"
# Files of the same content get the same layer, whenever they were staged.
find "$ctx" -exec touch -h -d @0 {} +

if [[ ${STAGE_ONLY:-} == 1 ]]; then
  echo "image: context staged in $ctx; build it with: docker build --build-arg VERSION=$version --build-arg REVISION=$revision -f Containerfile $ctx"
  exit 0
fi

tags=("$@")
[[ ${#tags[@]} -gt 0 ]] || tags=("inkwell:$version" "inkwell:latest")
tag_flags=()
for t in "${tags[@]}"; do tag_flags+=(--tag "$t"); done

# The docker format keeps the HEALTHCHECK, which OCI's image format has no
# field for. The labels are given again as --label: podman's layer cache
# (buildah 1.28) keys the Containerfile's LABEL step on its text, $VERSION
# unexpanded, and would keep the labels of an earlier build of the same
# binary.
bash scripts/podman.sh build --quiet --format docker \
  --build-arg "VERSION=$version" --build-arg "REVISION=$revision" \
  --label "org.opencontainers.image.version=$version" --label "org.opencontainers.image.revision=$revision" \
  "${tag_flags[@]}" --file Containerfile "$ctx"
