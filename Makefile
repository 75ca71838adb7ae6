# Inkwell. `make run` serves on :3000 with the embedded SQLite store;
# `make test` starts what the tests need and runs them all.
SHELL := /bin/bash
GO    ?= go
PKG   := github.com/inkwell/inkwell

# The tests' PostgreSQL: TEST_DATABASE_URL as the caller sets it, else the
# URL that make services wrote to .test-database-url (the role it made when
# the superuser could not log in), else the superuser postgres over TCP
# without a password. Read when each target runs, so after make services.
export TEST_DATABASE_URL ?= $(or $(file < .test-database-url),postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable)

# The code generators have a module of their own, so that sqlc's SQL parsers
# stay out of the service's go.mod.
TOOL := $(GO) tool -modfile=tools/go.mod

.PHONY: run build image image-context test test-short services check fmt vet staticcheck generate gen-check arch lint-openapi fuzz bench bench-image clean console-assets

# -buildvcs=auto stamps the git revision into the binary (inkwell version)
# even where GOFLAGS turns stamping off, and builds without it outside a
# checkout.
run:
	@echo "make run: compiling inkwell first; the first build takes a few minutes, later ones seconds."
	$(GO) run -buildvcs=auto ./cmd/inkwell

build:
	$(GO) build -buildvcs=auto -o bin/inkwell ./cmd/inkwell

# image builds the container image inkwell:VERSION and inkwell:latest with
# podman, FROM scratch, pulling nothing: scripts/image.sh stages the static
# binary, the CA bundle, the time zone data and a nonroot user in bin/image
# for the Containerfile. VERSION is git describe's unless given; the podman
# flags are scripts/podman.sh's. The image tests build it the same way.
image:
	GO=$(GO) bash scripts/image.sh

# image-context only stages bin/image, for a builder other than podman:
# docker build -f Containerfile bin/image.
image-context:
	GO=$(GO) STAGE_ONLY=1 bash scripts/image.sh

# services starts (or installs) PostgreSQL, creates a test role when
# TEST_DATABASE_URL cannot log in, and installs Chromium, versitygw, podman
# and runc when missing; it prints a line for each of these it does (scripts/services.sh).
services:
	@bash scripts/services.sh

# The HTTP suite runs every route on four stores (memory, SQLite, PostgreSQL
# directly and through PgBouncer) under the race detector, which outlasts go
# test's default ten minutes per package on a busy two-core machine.
#
# SQLite's engine is C translated to Go (modernc.org); the race detector
# leaves it out, as it leaves out the C of a cgo driver, and watches every
# package of ours and the rest. Instrumented, with its unsafe pointer
# checks, the engine took about seven times as long on every query, and
# the suites that read through it most took minutes.
RACE = -race -gcflags='modernc.org/...=-race=false'

test: services
	$(GO) test $(RACE) -count=1 -timeout 30m ./...

# test-short needs nothing running: PostgreSQL and browser tests skip.
test-short:
	TEST_DATABASE_URL= $(GO) test -count=1 ./...

check: fmt vet staticcheck gen-check arch lint-openapi

fmt:
	@out=$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# staticcheck is pinned in tools/go.mod with the generators.
staticcheck:
	$(TOOL) staticcheck ./...

generate:
	$(TOOL) sqlc generate
	$(TOOL) wire gen .

# gen-check fails when the committed sqlc or Wire output is stale.
gen-check:
	$(TOOL) sqlc diff
	$(TOOL) wire diff . > /dev/null || { $(TOOL) wire diff .; echo "wire_gen.go is stale: run make generate"; exit 1; }

arch:
	@bash scripts/archcheck.sh

# lint-openapi lints the OpenAPI document with Redocly's recommended rules
# and Spectral's (spectral:oas), failing on any warning. Both tools are
# pinned in tools/npm (package.json and package-lock.json); npm ci installs
# them into the git-ignored tools/npm/node_modules when the lock file
# changes, without running install scripts. Redocly's telemetry and update
# check are off, so linting sends the document nowhere.
OPENAPI   := adapters/httpapi/openapi/openapi.yaml
NPM_TOOLS := tools/npm/node_modules

$(NPM_TOOLS)/.installed: tools/npm/package.json tools/npm/package-lock.json
	cd tools/npm && npm ci --ignore-scripts --no-audit --no-fund
	touch $@

lint-openapi: $(NPM_TOOLS)/.installed
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
		$(NPM_TOOLS)/.bin/redocly lint --config tools/npm/redocly.yaml --format=stylish $(OPENAPI)
	$(NPM_TOOLS)/.bin/spectral lint --ruleset tools/npm/spectral.yaml --fail-severity=warn $(OPENAPI)

# console-assets refreshes the browser libraries the admin console serves
# from the binary: htmx and Pico CSS, pinned in tools/console-assets
# (package.json and package-lock.json), installed without install scripts,
# their built files and licences copied into adapters/console/assets/vendor,
# which is committed so that building needs no npm.
CONSOLE_VENDOR := adapters/console/assets/vendor

console-assets:
	cd tools/console-assets && npm ci --ignore-scripts --no-audit --no-fund
	mkdir -p $(CONSOLE_VENDOR)
	cp tools/console-assets/node_modules/htmx.org/dist/htmx.min.js $(CONSOLE_VENDOR)/htmx.min.js
	cp tools/console-assets/node_modules/htmx.org/LICENSE $(CONSOLE_VENDOR)/htmx.LICENSE
	cp tools/console-assets/node_modules/@picocss/pico/css/pico.min.css $(CONSOLE_VENDOR)/pico.min.css
	cp tools/console-assets/node_modules/@picocss/pico/LICENSE.md $(CONSOLE_VENDOR)/pico.LICENSE.md

# fuzz runs each fuzz target for FUZZTIME, one after another: the parsers
# of untrusted input (form and JSON bodies, numbers, tokens, cursors,
# uploaded images) and the validator. Inputs that fail are written to the
# package's testdata/fuzz, where go test replays them from then on.
# scripts/fuzz.sh runs one target and tells a finding from Go 1.26's
# deadline report at the end of FUZZTIME.
FUZZTIME ?= 1m
FUZZ_TARGETS := \
	./adapters/httpapi/qs:FuzzParse \
	./adapters/httpapi/validate:FuzzValidator \
	./adapters/httpapi/validate:FuzzParseDecimal \
	./domain:FuzzParsePlainToken \
	./domain:FuzzNewSecret \
	./adapters/httpapi:FuzzDecodeCursor \
	./adapters/httpapi:FuzzImageField \
	./adapters/httpapi:FuzzJSONBody

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		GO=$(GO) bash scripts/fuzz.sh "$${t%%:*}" "$${t#*:}" $(FUZZTIME); \
	done

# bench builds bin/inkwell, seeds SQLite and PostgreSQL and measures every
# scenario with wrk into bench/results (README, "Performance"); BENCH_POSTS,
# BENCH_STORES, BENCH_DURATION and the others in scripts/bench.sh choose
# the run. It needs wrk, jq, curl, psql and sqlite3.
bench:
	@bash scripts/bench.sh

# bench-image measures the container image against the plain binary
# (scripts/bench-image.sh): build time, size, start-to-ready time, and
# list and create throughput. It needs podman, wrk, curl and jq, as root.
bench-image:
	@bash scripts/bench-image.sh

clean:
	rm -rf bin
