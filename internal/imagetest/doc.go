// Package imagetest holds the tests that build Inkwell's container image
// the way make image does (scripts/image.sh, the root Containerfile) and
// run it with podman (scripts/podman.sh): as uid 65532 on a read-only root
// with its data on a volume, against PostgreSQL, with its health check, and
// stopped by podman stop while a request is in flight. It has no code of
// its own outside the tests.
//
// Without podman, or when not run as root (rootful podman), the tests
// skip, unless CI=true or REQUIRE_PODMAN=1, which make them fail instead.
package imagetest
