# The whole set-up on a fresh machine: `make run` and `make test` (see README.md).
PORT ?= 8080
export PORT
# npm ci refuses this lock: the registry here serves only linux builds of buf's optional binaries.
NPM_INSTALL = npm install --no-audit --no-fund
CHROMIUM ?= /usr/bin/chromium

.PHONY: run demo test test-rust test-frontend test-e2e check-deploy bench tools frontend clean

## run: build everything and start the all-in-one product on http://localhost:$(PORT)
run: frontend
	cargo build --release -p gateway
	./target/release/gateway

## demo: load a dozen demo shipments (run it while `make run` is up, or before)
demo:
	cargo build --release -p gateway
	./target/release/gateway demo

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && $(NPM_INSTALL)

frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm run build

## test: Rust tests (SQLite and MongoDB stores), front-end unit tests, Playwright e2e, deploy checks
test: test-rust test-frontend test-e2e check-deploy

test-rust: tools
	scripts/with-mongodb.sh cargo test --workspace --locked

test-frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm test

test-e2e: frontend
	@test -x $(CHROMIUM) || { echo "Chromium is missing: apt-get install -y chromium"; exit 1; }
	# Same features as test-rust, so the gateway binary is not built a second time.
	cargo test --workspace --locked --no-run
	cd frontend && CI=1 npm run e2e

## check-deploy: lint the Dockerfile, render and validate the Kubernetes manifests (deploy/)
check-deploy:
	scripts/check-deploy.sh

## tools: SecantusDB, the MongoDB-compatible server the store tests run against
tools: .tools/secantus/bin/secantusd-py

.tools/secantus/bin/secantusd-py:
	python3 -m venv .tools/secantus
	.tools/secantus/bin/pip install --quiet secantusdb==0.7.0b3

## bench: tracking lookups through the gateway, all-in-one and distributed (needs wrk)
bench: frontend
	scripts/bench.sh

clean:
	cargo clean
	rm -rf frontend/dist frontend/node_modules frontend/src/gen .tools
