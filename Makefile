# The whole set-up on a fresh machine: `make run` and `make test` (see README.md).
PORT ?= 8080
export PORT
# Installs exactly the committed lock (reproducible; needs no platform-specific build step).
NPM_INSTALL = npm ci --no-audit --no-fund
CHROMIUM ?= /usr/bin/chromium
# buf (a platform binary from npm) lints proto/; installed once into .tools, only for the tests.
BUF_VERSION = 1.75.0
BUF = .tools/buf/node_modules/.bin/buf

.PHONY: run run-distributed demo test check unit-tests system-packages lint lint-rust lint-frontend build-rust test-rust test-frontend test-e2e test-e2e-distributed check-metrics check-deploy test-faults fault-test bench bench-smoke bench-packages tools webhook-tools openapi-tools buf install-buf npm-ci frontend clean

## run: build everything and start the all-in-one product on http://localhost:$(PORT)
# E-mails written over SMTP carry the site's brand: frontend/brand.json, or BRAND_FILE (absolute).
BRAND_FOR_SERVICES = $(or $(BRAND_FILE),$(wildcard $(CURDIR)/frontend/brand.json))

run: frontend
	cargo build --release -p gateway
	$(if $(BRAND_FOR_SERVICES),BRAND_FILE=$(BRAND_FOR_SERVICES)) ./target/release/gateway

## run-distributed: every service its own process, with Redis and SecantusDB (MongoDB), gateway in front
run-distributed: frontend tools
	cargo build --release -p gateway -p shipments -p auth -p notifications -p preferences
	$(if $(BRAND_FOR_SERVICES),BRAND_FILE=$(BRAND_FOR_SERVICES)) BIN_DIR=target/release scripts/run-distributed.sh

## demo: load a dozen demo shipments (run it while `make run` is up, or before)
demo:
	cargo build --release -p gateway
	./target/release/gateway demo

npm-ci: frontend/node_modules/.package-lock.json

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && $(NPM_INSTALL)

frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm run build

## test: installs the missing system packages, then lint, Rust tests (SQLite and MongoDB stores),
## front-end unit tests and JS budget, the Playwright suite against the all-in-one and its
## cross-service specs against the distributed product, deploy checks, and a tiny run of the
## benchmark (so it cannot rot); prints each stage's time at the end, also when one fails
## (the stages, their order and which run side by side: scripts/test-stages.sh)
test:
	@MAKE="$(MAKE)" scripts/test-stages.sh

# In `make test`, clippy lints the workspace while build-rust compiles it (clippy-driver as the
# workspace's compiler, which is how `cargo clippy` runs it), instead of in a check-only build
# of every crate of its own. Every cargo command of `make test` then sees the same compiler, so
# none rebuilds what build-rust built.
CLIPPY_DRIVER := $(shell command -v clippy-driver 2>/dev/null)
ifneq ($(CLIPPY_DRIVER),)
test: export RUSTC_WORKSPACE_WRAPPER = $(CLIPPY_DRIVER)
test: export CLIPPY_ARGS = -Dwarnings__CLIPPY_HACKERY__
endif

## check: the inner loop: every static check and the unit tests (Rust `--lib`: the binaries have
## none, vitest)
check: lint unit-tests

unit-tests: tools frontend/node_modules/.package-lock.json
	scripts/with-mongodb.sh cargo test --workspace --locked --lib
	cd frontend && npm test

## system-packages: Chromium, redis-server and python3-venv, installed with apt-get when missing
## (as root or with sudo), or the command to run
system-packages:
	CHROMIUM=$(CHROMIUM) scripts/ensure-system-packages.sh

## lint: every static check
lint: lint-rust lint-frontend

## lint-rust: rustfmt, clippy with warnings as errors, and no unused dependency
## (scripts/unused-deps.py: cargo-machete's check, with nothing to build first)
lint-rust:
	cargo fmt --all --check
	scripts/unused-deps.py
	$(if $(findstring clippy-driver,$(RUSTC_WORKSPACE_WRAPPER)),@echo "clippy: runs in build-rust",cargo clippy --workspace --all-targets --locked -- -D warnings)

## lint-frontend: ESLint, knip (dead exports and files), src/gen matches proto/, buf lint of proto/
lint-frontend: frontend/node_modules/.package-lock.json $(BUF)
	cd frontend && npm run lint && npm run knip && npm run check-generated
	$(BUF) lint proto

## build-rust: every crate, test and binary of the workspace, once: the later steps use these
## binaries, as `cargo build` would give other features (those the tests' dependencies add)
## and so build many crates a second time
build-rust:
	cargo test --workspace --locked --no-run

## test-rust: every Rust test on both stores; with cargo-nextest (on the CI machine), the test
## binaries run side by side, four tests at a time (most of them wait on a service they started)
NEXTEST := $(shell cargo nextest --version >/dev/null 2>&1 && echo yes)
test-rust: system-packages tools build-rust
	scripts/with-mongodb.sh $(if $(NEXTEST),cargo nextest run --workspace --locked --test-threads 4 --no-fail-fast,cargo test --workspace --locked)

test-frontend: frontend
	cd frontend && npm test && npm run budget

## test-e2e: the whole Playwright suite against the all-in-one gateway
test-e2e: system-packages frontend build-rust
	cd frontend && CI=1 npm run e2e -- $(E2E_ARGS)

## test-e2e-distributed: the specs whose flows cross a service boundary (the list and why:
## frontend/playwright.config.ts) against scripts/run-distributed.sh
test-e2e-distributed: system-packages frontend build-rust tools
	cd frontend && CI=1 E2E_MODE=distributed npm run e2e

## check-metrics: every process's /metrics (all-in-one gateway, each distributed service) has
## HELP for every metric and passes `promtool check metrics` (scripts/check-metrics.py)
check-metrics: system-packages tools build-rust
	scripts/check-metrics.py

## test-faults: the fault test on the debug binaries of build-rust, each part down for 2 s
## (`make fault-test` keeps 5 s)
test-faults: system-packages frontend build-rust tools
	BIN_DIR=target/debug OUTAGE_SECONDS=2 scripts/fault-test.py

## fault-test: kill and restart shipments, auth, notifications, a gateway replica, Redis and
## SecantusDB under load, on release binaries; prints what it measured
fault-test: frontend tools
	cargo build --release -p gateway -p shipments -p auth -p notifications -p preferences
	BIN_DIR=target/release scripts/fault-test.py

## check-deploy: lint the Dockerfile, render and validate the Kubernetes manifests (deploy/)
check-deploy:
	scripts/check-deploy.sh

## tools: SecantusDB, the MongoDB-compatible server the store tests run against, the
## Python the webhook tests check deliveries with, and the OpenAPI validator
tools: .tools/secantus/bin/secantusd-py webhook-tools openapi-tools

.tools/secantus/bin/secantusd-py:
	python3 -m venv .tools/secantus
	.tools/secantus/bin/pip install --quiet secantusdb==0.7.0b3

## webhook-tools: the Standard Webhooks library and jsonschema, which the webhook tests check
## every delivery's signature and payload with (services/test-servers/test-support/check_webhooks.py)
webhook-tools: .tools/webhooks/bin/python

.tools/webhooks/bin/python:
	python3 -m venv .tools/webhooks
	.tools/webhooks/bin/pip install --quiet standardwebhooks==1.1.0 jsonschema==4.26.0

## openapi-tools: openapi-spec-validator, which the gateway's tests check /openapi.json with
openapi-tools: .tools/openapi/bin/openapi-spec-validator

.tools/openapi/bin/openapi-spec-validator:
	python3 -m venv .tools/openapi
	.tools/openapi/bin/pip install --quiet openapi-spec-validator==0.7.2

## buf: the buf CLI in .tools/buf (for `buf lint` and `buf curl`)
buf: $(BUF)

install-buf: $(BUF)

$(BUF):
	npm install --prefix .tools/buf --no-audit --no-fund --loglevel=error @bufbuild/buf@$(BUF_VERSION)

## bench: static files against nginx, tracking lookups, gateway memory, the admin list over a
## million shipments, Lighthouse scores; PASS/FAIL against the targets (installs wrk and
## nginx-light when missing, like `make test`)
bench: bench-packages frontend
	scripts/bench.sh

bench-packages:
	CHROMIUM=$(CHROMIUM) scripts/ensure-system-packages.sh nginx-light wrk

## bench-smoke: the whole benchmark in miniature (debug build, 300 shipments, 1 s loads); checks
## that it runs end to end and prints its numbers, never a target
bench-smoke: bench-packages frontend build-rust
	BENCH_SMOKE=1 scripts/bench.sh

clean:
	cargo clean
	rm -rf frontend/dist frontend/node_modules .tools
