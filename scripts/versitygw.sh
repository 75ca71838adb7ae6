#!/usr/bin/env bash
# Installs versitygw, the S3-compatible server that the S3 tests start on
# loopback (adapters/s3files/s3test), with go install into Go's bin folder,
# where the tests look for it besides PATH. Safe to run again. A first
# install downloads and builds for a few minutes.
set -euo pipefail
version=v1.8.0

bin=$(go env GOBIN)
[[ -n $bin ]] || bin=$(go env GOPATH | cut -d: -f1)/bin
if found=$(command -v versitygw 2>/dev/null) || { found=$bin/versitygw; [[ -x $found ]]; }; then
  echo "services: versitygw is at $found"
  exit 0
fi
echo "services: installing versitygw $version into $bin (go install)"
GOBIN=$bin go install "github.com/versity/versitygw/cmd/versitygw@$version"
