#!/usr/bin/env bash
# Keeps the hexagon's imports pointing inward: domain, ports and app import no
# framework, driver or crypto package, ports imports nothing of the module
# but domain, the demonstration data in demo (with its Seeder, the stores'
# bulk loader) imports the standard library and domain only and the core
# none of it, internal/ holds the test harnesses only, and no
# adapter imports app or another
# adapter (packages below one adapter's folder belong to that adapter). No
# adapter but the stores names a store port: the driving adapters (named
# below) call use cases only, whatever they import. No adapter names the
# operator's powers (ports.Operator), which only the command line holds.
# Packages under adapters/internal/ hold what several adapters share (how
# the SQL stores add up their post counters, say): any adapter may import
# them, and they import only ports, domain and the standard library.
# adapters/web is the leaf the driving adapters over HTTP (httpapi and the
# admin console) share: session and CSRF mechanics, the client address and
# the error kind -> status table. Exactly those two may import it, it may
# import no other adapter, and (having no rule) names no store port.
# Test-support packages, those whose last path element ends in "test"
# (pgtest, openapitest, stacktest), may import any adapter, so no other
# package may import them.
set -euo pipefail
mod=$(go list -m)
fail=0
# The driving adapters, by name: the transports and the leaf they share.
driving='httpapi console web'
# The driven adapters that implement the store ports, and what they share.
stores='sqlite postgres memory internal'

forbidden='github.com/gofiber/|github.com/valyala/|github.com/jackc/|modernc.org/|github.com/google/wire|golang.org/x/crypto|database/sql'
bad=$(go list -deps ./domain/... ./ports/... ./app/... | grep -E "^($forbidden)" || true)
if [[ -n $bad ]]; then
  echo "arch: domain, ports or app depend on:"; echo "$bad" | sed 's/^/  /'; fail=1
fi

bad=$(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./domain/... | grep -v "^$mod/domain" || true)
if [[ -n $bad ]]; then
  echo "arch: domain imports more than the standard library:"; echo "$bad" | sed 's/^/  /'; fail=1
fi

bad=$(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./ports |
  grep -vx -e "$mod/ports" -e "$mod/domain" || true)
if [[ -n $bad ]]; then
  echo "arch: ports imports more than domain and the standard library:"; echo "$bad" | sed 's/^/  /'; fail=1
fi

# The demonstration data sits beside the core, below the stores and the
# seed command that write it: it imports domain only, and the core (which
# neither seeds nor knows of demonstration data) does not import it.
bad=$(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./demo/... |
  grep -vx -e "$mod/demo" -e "$mod/domain" || true)
if [[ -n $bad ]]; then
  echo "arch: demo imports more than the standard library and domain:"; echo "$bad" | sed 's/^/  /'; fail=1
fi
bad=$(go list -deps ./domain/... ./ports/... ./app/... | grep -E "^$mod/demo(/|$)" || true)
if [[ -n $bad ]]; then
  echo "arch: domain, ports or app depend on the demonstration data:"; echo "$bad" | sed 's/^/  /'; fail=1
fi

# internal/ holds the harnesses that run the whole service for tests (the
# stack, a cluster of replicas, the container image, logs read while
# written): test support only, above everything else in the import graph,
# so no production package may live there and be imported from below.
bad=$(go list -f '{{.ImportPath}}' ./internal/... | grep -v -E '^.*test$' || true)
if [[ -n $bad ]]; then
  echo "arch: internal/ holds a package that is not test support (its name must end in test):"
  echo "$bad" | sed 's/^/  /'; fail=1
fi

while read -r pkg imports; do
  own=${pkg#"$mod/adapters/"}; own=${own%%/*}
  # Test-support packages are linked only into tests, which put adapters
  # together on purpose (every store behind one HTTP test, say), so they may
  # import other adapters; the check below keeps them out of the service.
  support=false; [[ ${pkg##*/} == *test ]] && support=true
  for imp in $imports; do
    case $imp in
      "$mod/app"|"$mod/app/"*) echo "arch: $pkg imports $imp"; fail=1 ;;
      "$mod/adapters/internal/"*) ;;
      "$mod/adapters/web")
        [[ " $driving " == *" $own "* ]] || $support ||
          { echo "arch: $pkg imports $imp (only the driving adapters, $driving, may)"; fail=1; } ;;
      "$mod/adapters/"*)
        $support && continue
        other=${imp#"$mod/adapters/"}; other=${other%%/*}
        [[ $other == "$own" ]] || { echo "arch: $pkg imports $imp"; fail=1; } ;;
    esac
  done
done < <(go list -f '{{.ImportPath}} {{join .Imports " "}}' ./adapters/...)

# Every driving adapter goes through the use-case ports: naming ports.Store
# or ports.Repos, or calling Repos(), would let a handler skip the rules a
# use case applies. The stores (listed at the top) are the driven adapters
# that implement those ports. Every other package under adapters/, driving or driven,
# whatever it imports, is held to the rule from its first file, so a new
# transport (gRPC, JSON-RPC) cannot reach the store by forgetting Fiber.
# Imports cannot tell a store call (ports holds both sides), so this reads
# the source of the files that make up the service; tests and test-support
# packages may use the store to set up what they drive.
store='\bports\.(Store|Repos)\b|\.Repos\(\)'
while read -r pkg dir files; do
  [[ ${pkg##*/} == *test ]] && continue
  own=${pkg#"$mod/adapters/"}; own=${own%%/*}
  [[ " $stores " == *" $own "* ]] && continue
  for f in ${files//,/ }; do
    if hits=$(grep -nE "$store" "$dir/$f"); then
      echo "arch: $pkg reaches the store in $f (only the stores, $stores, may):"; echo "$hits" | sed 's/^/  /'; fail=1
    fi
  done
done < <(go list -f '{{.ImportPath}} {{.Dir}} {{join .GoFiles ","}}' ./adapters/...)

# The operator's powers (ports.Operator: admin rights and token revocation
# by e-mail, which take no actor) belong to the command line alone, which
# the root hands them to. No package under adapters/, driving or driven,
# names them: a transport given them would let its callers act as the
# operator without signing in. Tests may, to set up what they drive.
operator='\bports\.(Operator|OperatorTokens|AdminRights)\b'
while read -r pkg dir files; do
  [[ ${pkg##*/} == *test ]] && continue
  for f in ${files//,/ }; do
    if hits=$(grep -nE "$operator" "$dir/$f"); then
      echo "arch: $pkg names the operator's powers in $f (only cmd/inkwell holds them):"; echo "$hits" | sed 's/^/  /'; fail=1
    fi
  done
done < <(go list -f '{{.ImportPath}} {{.Dir}} {{join .GoFiles ","}}' ./adapters/...)

bad=$(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./adapters/internal/... |
  grep -v -E "^$mod/(adapters/internal|ports|domain)(/|$)" || true)
if [[ -n $bad ]]; then
  echo "arch: adapters/internal imports more than ports, domain and the standard library:"
  echo "$bad" | sed 's/^/  /'; fail=1
fi

# Only tests and other test-support packages may import a test-support
# package: one imported by the service would link testing and every adapter
# into the binary. .Imports holds no _test file's imports, so the packages
# listed here are the ones that make up the service and its tools.
while read -r pkg imports; do
  [[ ${pkg##*/} == *test ]] && continue
  for imp in $imports; do
    case $imp in
      "$mod/"*test) echo "arch: $pkg imports test-support package $imp"; fail=1 ;;
    esac
  done
done < <(go list -f '{{.ImportPath}} {{join .Imports " "}}' ./...)

exit $fail
