#!/usr/bin/env bash
# Load benchmark of the public tracking lookup through the gateway (gRPC-web over HTTP/1.1,
# 64 connections), all-in-one and distributed, over a store of SHIPMENTS (default 100,000)
# shipments; the gateway serving a small static file, as this machine's reference; and the
# admin list (search + status filter + first page) over LIST_SHIPMENTS (default 1,000,000)
# shipments in the embedded store, seeded once into target/bench/ and reused; and the
# Lighthouse performance and accessibility scores of /, /track and /services.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
SHIPMENTS=${SHIPMENTS:-100000}
LIST_SHIPMENTS=${LIST_SHIPMENTS:-1000000}
DURATION=${DURATION:-10s}
CONNECTIONS=64

cargo build --release -p gateway -p shipments
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 1 100); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "no answer from $1" >&2; exit 1; }

echo "Seeding $SHIPMENTS shipments through the shipment service API..."
DATA_DIR="$work/data" ./target/release/seed --count "$SHIPMENTS" --numbers "$work/numbers.txt"

# A wrk script that sends GetShipmentByTrackingNumber for random seeded numbers.
{
  echo 'local numbers = {}'
  while read -r n; do echo "numbers[#numbers + 1] = \"$n\""; done < "$work/numbers.txt"
  cat <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/grpc-web+proto"
wrk.headers["X-Grpc-Web"] = "1"
request = function()
  local n = numbers[math.random(#numbers)]
  -- gRPC-web frame: flag 0, length 14, then field 1 (tag 0x0a) of 12 bytes.
  local body = string.char(0, 0, 0, 0, 14, 10, 12) .. n
  return wrk.format(nil, "/logistics.v1.ShipmentService/GetShipmentByTrackingNumber", nil, body)
end
LUA
} > "$work/track.lua"

results=()
measure() { # name url [script]
  local out
  if [ -n "${3:-}" ]; then out=$(wrk -t1 -c$CONNECTIONS -d"$DURATION" --latency -s "$3" "$2"); else out=$(wrk -t1 -c$CONNECTIONS -d"$DURATION" --latency "$2"); fi
  local rps p50 p99 errors
  rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  errors=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')
  results+=("$(printf '%-34s %12s req/s   p50 %-9s p99 %-9s %s' "$1" "$rps" "$p50" "$p99" "$errors")")
}

check_lookup() { # base: one real lookup must answer grpc-status 0
  local n; n=$(head -1 "$work/numbers.txt")
  printf '\x00\x00\x00\x00\x0e\x0a\x0c%s' "$n" > "$work/one.bin"
  curl -fs -D - -o "$work/one.out" -H 'content-type: application/grpc-web+proto' --data-binary @"$work/one.bin" \
    "$1/logistics.v1.ShipmentService/GetShipmentByTrackingNumber" >/dev/null
  grep -aq "grpc-status:0" "$work/one.out" || { echo "lookup through $1 did not succeed" >&2; exit 1; }
}

static_file=favicon.svg

# All-in-one.
port=$(free_port)
PORT=$port DATA_DIR="$work/data" STATIC_DIR=frontend/dist TRACKING_RATE_LIMIT_PER_MINUTE=1000000000 RUST_LOG=warn METRICS_ADDR=off \
  ./target/release/gateway & pids+=($!)
wait_for "http://127.0.0.1:$port/healthz"
check_lookup "http://127.0.0.1:$port"
measure "static file ($static_file)" "http://127.0.0.1:$port/$static_file"
measure "tracking lookup, all-in-one" "http://127.0.0.1:$port" "$work/track.lua"
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true

# Distributed: the shipments service on its own, the gateway reaching it over gRPC.
sport=$(free_port); gport=$(free_port)
SHIPMENTS_ADDR=127.0.0.1:$sport DATA_DIR="$work/data" RUST_LOG=warn METRICS_ADDR=off ./target/release/shipments & pids+=($!)
PORT=$gport SHIPMENTS_URL=http://127.0.0.1:$sport STATIC_DIR=frontend/dist TRACKING_RATE_LIMIT_PER_MINUTE=1000000000 RUST_LOG=warn METRICS_ADDR=off \
  ./target/release/gateway & pids+=($!)
wait_for "http://127.0.0.1:$gport/healthz"
check_lookup "http://127.0.0.1:$gport"
measure "tracking lookup, distributed" "http://127.0.0.1:$gport" "$work/track.lua"

# Lighthouse on /, /track and /services, offline on localhost (all-in-one, demo data).
port=$(free_port)
PORT=$port DATA_DIR="$work/lighthouse" STATIC_DIR=frontend/dist RUST_LOG=warn METRICS_ADDR=off ./target/release/gateway & pids+=($!)
wait_for "http://127.0.0.1:$port/healthz"
lighthouse=$(cd frontend && CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium} npm run --silent lighthouse -- "http://127.0.0.1:$port" 2>/dev/null || true)
while read -r line; do [ -n "$line" ] && results+=("Lighthouse $line"); done <<<"$lighthouse"
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true

# The admin list over a large embedded store (seeding 1,000,000 takes several minutes once).
list_data="target/bench/list-$LIST_SHIPMENTS"
if [ ! -f "$list_data/.seeded" ]; then
  rm -rf "$list_data"
  echo "Seeding $LIST_SHIPMENTS shipments for the admin list into $list_data (once)..."
  DATA_DIR="$list_data" ./target/release/seed --count "$LIST_SHIPMENTS"
  touch "$list_data/.seeded"
fi
list_result=$(DATA_DIR="$list_data" ./target/release/bench-list)
results+=("$list_result over $LIST_SHIPMENTS shipments (SQLite)")

echo
echo "Store: $SHIPMENTS shipments; $CONNECTIONS connections, 1 wrk thread (one core for the load, one for the product), $DURATION each, on $(nproc) cores."
printf '%s\n' "${results[@]}"
