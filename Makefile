# The whole set-up on a fresh machine: `make run` and `make test` (see README.md).
PORT ?= 8080
export PORT
# npm ci refuses this lock: the registry here serves only linux builds of buf's optional binaries.
NPM_INSTALL = npm install --no-audit --no-fund
CHROMIUM ?= /usr/bin/chromium

.PHONY: run run-distributed demo test test-rust test-frontend test-e2e test-e2e-distributed check-deploy fault-test bench bench-smoke tools frontend clean

## run: build everything and start the all-in-one product on http://localhost:$(PORT)
run: frontend
	cargo build --release -p gateway
	./target/release/gateway

## run-distributed: every service its own process, with Redis and SecantusDB (MongoDB), gateway in front
run-distributed: frontend tools
	cargo build --release -p gateway -p shipments -p auth -p notifications -p preferences
	BIN_DIR=target/release scripts/run-distributed.sh

## demo: load a dozen demo shipments (run it while `make run` is up, or before)
demo:
	cargo build --release -p gateway
	./target/release/gateway demo

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && $(NPM_INSTALL)

frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm run build

## test: Rust tests (SQLite and MongoDB stores), front-end unit tests and JS budget, Playwright e2e
## in both modes, deploy checks, and a tiny run of the benchmark (so it cannot rot)
test: test-rust test-frontend test-e2e test-e2e-distributed check-deploy bench-smoke

test-rust: tools
	scripts/with-mongodb.sh cargo test --workspace --locked

test-frontend: frontend
	cd frontend && npm test && npm run budget

test-e2e: frontend
	@test -x $(CHROMIUM) || { echo "Chromium is missing: apt-get install -y chromium"; exit 1; }
	# Same features as test-rust, so the gateway binary is not built a second time.
	cargo test --workspace --locked --no-run
	cd frontend && CI=1 npm run e2e

## test-e2e-distributed: the same Playwright suite against scripts/run-distributed.sh
test-e2e-distributed: test-e2e tools
	cargo build -p shipments -p auth -p notifications -p preferences
	cd frontend && CI=1 E2E_MODE=distributed npm run e2e

## fault-test: kill and restart shipments, Redis and SecantusDB under load; prints what it measured
fault-test: frontend tools
	cargo build --release -p gateway -p shipments -p auth -p notifications -p preferences
	BIN_DIR=target/release scripts/fault-test.py

## check-deploy: lint the Dockerfile, render and validate the Kubernetes manifests (deploy/)
check-deploy:
	scripts/check-deploy.sh

## tools: SecantusDB, the MongoDB-compatible server the store tests run against
tools: .tools/secantus/bin/secantusd-py

.tools/secantus/bin/secantusd-py:
	python3 -m venv .tools/secantus
	.tools/secantus/bin/pip install --quiet secantusdb==0.7.0b3

## bench: static files against nginx, tracking lookups, gateway memory, the admin list over a
## million shipments, Lighthouse scores; PASS/FAIL against the targets (installs wrk and nginx-light as root)
bench: frontend
	scripts/bench.sh

## bench-smoke: the whole benchmark in miniature (debug build, 300 shipments, 1 s loads); checks
## that it runs end to end and prints its numbers, never a target
bench-smoke: frontend
	BENCH_SMOKE=1 scripts/bench.sh

clean:
	cargo clean
	rm -rf frontend/dist frontend/node_modules frontend/src/gen .tools
