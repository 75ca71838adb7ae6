#!/usr/bin/env bash
# Installs Mailpit, the mail server that the mail tests start on loopback
# (adapters/mail/mailpittest), with go install into Go's bin folder, where
# the tests look for it besides PATH. Safe to run again. A first install
# downloads and builds for a few minutes.
set -euo pipefail
version=v1.27.11

bin=$(go env GOBIN)
[[ -n $bin ]] || bin=$(go env GOPATH | cut -d: -f1)/bin
if found=$(command -v mailpit 2>/dev/null) || { found=$bin/mailpit; [[ -x $found ]]; }; then
  echo "services: mailpit is at $found"
  exit 0
fi
echo "services: installing mailpit $version into $bin (go install)"
GOBIN=$bin go install "github.com/axllent/mailpit@$version"
