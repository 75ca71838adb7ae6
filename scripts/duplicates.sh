#!/usr/bin/env bash
# Counts the word-for-word duplicate pairs of six lines or more in the
# hand-written, non-test Go, which the project holds to at most 40. It
# copies the files that count into a scratch folder and runs the workplace
# tool duplicates over it. Left out: tests (*_test.go), generated files
# ("// Code generated ... DO NOT EDIT."), test-support packages (those whose
# last path element ends in "test", like ports/portstest) and bench/.
# Pairs alike only in shape (other names and values) are listed by the tool
# but not counted here.
#
#   scripts/duplicates.sh         the count and the word-for-word pairs
#   scripts/duplicates.sh -a      every pair, shape ones too
#   scripts/duplicates.sh REV     the same for the tree of commit REV
set -euo pipefail
cd "$(dirname "$0")/.."

all=false
[[ ${1:-} == -a ]] && { all=true; shift; }
rev=${1:-}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [[ -n $rev ]]; then
  files() { git ls-tree -r --name-only "$rev" | grep '\.go$'; }
  content() { git show "$rev:$1"; }
else
  files() { git ls-files -co --exclude-standard -- '*.go'; }
  content() { [[ -f $1 ]] && cat "$1"; }
fi
files | while read -r f; do
  case $f in
    *_test.go | bench/*) continue ;;
  esac
  dir=$(dirname "$f")
  [[ ${dir##*/} == *test ]] && continue
  text=$(content "$f") || continue
  grep -qE '^// Code generated .* DO NOT EDIT\.$' <<<"$text" && continue
  mkdir -p "$tmp/$dir"
  printf '%s\n' "$text" >"$tmp/$f"
done

out=$(cd "$tmp" && duplicates --repo . --most 200 --seconds 300)
if $all; then
  echo "$out"
  exit 0
fi
# The first line says "N pairs of places ... (M by shape alone, ...)": the
# word-for-word pairs are the others.
head=$(echo "$out" | head -n 1)
rows=$(echo "$out" | grep -E '^D[0-9]+ ' | grep -v -E ' shape( |$)' || true)
echo "$rows" | sed '/^$/d'
# A pair whose one shared run lies inside both files' import lists is told
# apart: it says the files import alike, not that code was copied.
imports=$(cd "$tmp" && echo "$rows" | python3 -c '
import re, sys
def inside(path, a, b):
    lines = open(path).read().split("\n")
    start = next((i + 1 for i, l in enumerate(lines) if l.startswith("import (")), 0)
    end = next((i + 1 for i, l in enumerate(lines) if i + 1 > start and l == ")"), 0) if start else 0
    return start and start <= a and b <= end
n = 0
for row in sys.stdin:
    m = re.match(r"D\d+ (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)$", row.strip())
    if m and inside(m[1], int(m[2]), int(m[3])) and inside(m[4], int(m[5]), int(m[6])):
        n += 1
print(n)
')
echo "$out" | grep -E "^(incomplete|left out):" || true
if [[ $head =~ ^([0-9]+)\ pairs.*\(([0-9]+)\ by\ shape\ alone ]]; then
  echo "word-for-word pairs: $((BASH_REMATCH[1] - BASH_REMATCH[2])) (of ${BASH_REMATCH[1]} pairs; $imports of them share only an import list)"
elif [[ $head == 'no duplicates'* ]]; then
  echo "word-for-word pairs: 0"
else
  echo "duplicates: unexpected first line: $head" >&2
  exit 1
fi
