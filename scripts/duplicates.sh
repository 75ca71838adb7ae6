#!/usr/bin/env bash
# Counts the word-for-word duplicate pairs of six lines or more in the
# hand-written, non-test Go, the figure issue 33 bounds (at most 40). It
# copies the files that count into a scratch folder and runs the workplace
# tool duplicates over it. Left out: tests (*_test.go), generated files
# ("// Code generated ... DO NOT EDIT."), test-support packages (those whose
# last path element ends in "test", like ports/portstest) and bench/.
# Pairs alike only in shape (other names and values) are listed by the tool
# but not counted here.
#
#   scripts/duplicates.sh        the count and the word-for-word pairs
#   scripts/duplicates.sh -a     every pair, shape ones too
set -euo pipefail
cd "$(dirname "$0")/.."

all=false
[[ ${1:-} == -a ]] && all=true

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git ls-files -co --exclude-standard -- '*.go' | while read -r f; do
  [[ -f $f ]] || continue
  case $f in
    *_test.go | bench/*) continue ;;
  esac
  dir=$(dirname "$f")
  [[ ${dir##*/} == *test ]] && continue
  grep -qE '^// Code generated .* DO NOT EDIT\.$' "$f" && continue
  mkdir -p "$tmp/$dir"
  cp "$f" "$tmp/$f"
done

out=$(cd "$tmp" && duplicates --repo . --most 200 --seconds 300)
if $all; then
  echo "$out"
  exit 0
fi
# The first line says "N pairs of places ... (M by shape alone, ...)": the
# word-for-word pairs are the others.
head=$(echo "$out" | head -n 1)
echo "$out" | grep -E '^D[0-9]+ ' | grep -v -E ' shape( |$)' || true
echo "$out" | grep -E "^(incomplete|left out):" || true
if [[ $head =~ ^([0-9]+)\ pairs.*\(([0-9]+)\ by\ shape\ alone ]]; then
  echo "word-for-word pairs: $((BASH_REMATCH[1] - BASH_REMATCH[2])) (of ${BASH_REMATCH[1]} pairs)"
elif [[ $head == 'no duplicates'* ]]; then
  echo "word-for-word pairs: 0"
else
  echo "duplicates: unexpected first line: $head" >&2
  exit 1
fi
