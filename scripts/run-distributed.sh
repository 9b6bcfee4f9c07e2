#!/usr/bin/env bash
# The product in distributed mode on one machine, in the foreground: a real redis-server,
# SecantusDB (MongoDB-compatible) with its data in DATA_ROOT, each service as its own process,
# and the gateway in front. Every process's output is passed through, prefixed by its name.
# Ctrl-C or SIGTERM stops everything; if one process dies, everything is stopped.
#
# Settings (environment; everything else, e.g. TRACKING_RATE_LIMIT_PER_MINUTE, RUST_LOG,
# LOG_FORMAT, MAIL_TRANSPORT, EMAILJS_*, is inherited by every process as it is):
#   PORT            the website (gateway), default 8080
#   BIN_DIR         where the binaries are, default target/debug (`make run-distributed`: target/release)
#   DATA_ROOT       SecantusDB's files, Redis's append-only file (DATA_ROOT/redis) and the JWT
#                   key, default data/distributed (kept across runs)
#   STATIC_DIR      the built web app, default frontend/dist
#   ADMIN_EMAIL, ADMIN_PASSWORD   the first admin, created on the first start (no users yet);
#                   without ADMIN_PASSWORD the auth service prints a generated password once
#   JWT_SIGNING_KEY the service-token key; default: DATA_ROOT/jwt.key, generated on the first run
#   REDIS_PORT (6379), MONGO_PORT (27017), SHIPMENTS_PORT (50051), AUTH_PORT (50052),
#   NOTIFICATIONS_PORT (50053), PREFERENCES_PORT (50054), METRICS_PORT_BASE (9090: gateway,
#                   then +1 shipments, +2 auth, +3 notifications, +4 preferences; METRICS_ADDR=off
#                   turns metrics off). A default port that is taken is replaced by a free one;
#                   a port you set must be free.
#   REDIS_URL / MONGODB_URI   use that Redis / MongoDB instead of starting one
#   MONGODB_DATABASE          default logistics
#   REDIS_SERVER, SECANTUSD   the redis-server and secantusd-py executables
#   STARTUP_TIMEOUT           seconds to wait for everything to be healthy, default 120
#
# The addresses in use (each process's metrics address too, and the JWT key) are written to
# DATA_ROOT/endpoints.env (mode 600),
# so tools can reach the services, e.g.
#   (set -a; . data/distributed/endpoints.env; set +a; target/debug/gateway demo)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$PWD" "$1" ;; esac; }

BIN_DIR=$(abspath "${BIN_DIR:-$root/target/debug}")
DATA_ROOT=$(abspath "${DATA_ROOT:-$root/data/distributed}")
STATIC_DIR=$(abspath "${STATIC_DIR:-$root/frontend/dist}")
PORT=${PORT:-8080}
REDIS_SERVER=${REDIS_SERVER:-redis-server}
SECANTUSD=${SECANTUSD:-$root/.tools/secantus/bin/secantusd-py}
MONGODB_DATABASE=${MONGODB_DATABASE:-logistics}
STARTUP_TIMEOUT=${STARTUP_TIMEOUT:-120}
export PORT STATIC_DIR MONGODB_DATABASE

log() { printf '[run-distributed] %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

for bin in gateway shipments auth notifications preferences; do
  [ -x "$BIN_DIR/$bin" ] || die "missing $BIN_DIR/$bin: cargo build -p gateway -p shipments -p auth -p notifications -p preferences (or set BIN_DIR)"
done
[ -f "$STATIC_DIR/index.html" ] || log "warning: no built web app in $STATIC_DIR (cd frontend && npm run build); the API still works"
command -v python3 >/dev/null || die "python3 is needed (SecantusDB and the health checks)"

port_free() {
  python3 - "$1" <<'EOF'
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do: TIME_WAIT is no obstacle
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
EOF
}
free_port() { python3 "$root/scripts/ports.py"; }

# pick NAME DEFAULT: the port in $NAME if set (must be free), else DEFAULT if free, else a free one.
pick() {
  local name=$1 default=$2 value=${!1:-}
  if [ -n "$value" ]; then
    port_free "$value" || die "$name=$value: the port is in use"
  elif port_free "$default"; then
    value=$default
  else
    value=$(free_port)
    log "port $default ($name) is in use: using $value"
  fi
  printf -v "$name" '%s' "$value"
}

port_free "$PORT" || die "PORT=$PORT is in use (set PORT to another one)"
[ -n "${REDIS_URL:-}" ] || pick REDIS_PORT 6379
[ -n "${MONGODB_URI:-}" ] || pick MONGO_PORT 27017
pick SHIPMENTS_PORT 50051
pick AUTH_PORT 50052
pick NOTIFICATIONS_PORT 50053
pick PREFERENCES_PORT 50054
METRICS_PORT_BASE=${METRICS_PORT_BASE:-9090}
metrics_addr() { # metrics_addr OFFSET
  if [ "${METRICS_ADDR:-}" = off ]; then echo off; return; fi
  local p=$((METRICS_PORT_BASE + $1))
  if ! port_free "$p"; then
    local taken=$p
    p=$(free_port)
    log "metrics port $taken is in use: using $p (endpoints.env lists each process's)"
  fi
  echo "127.0.0.1:$p"
}

mkdir -p "$DATA_ROOT"
if [ -z "${JWT_SIGNING_KEY:-}" ]; then
  key_file="$DATA_ROOT/jwt.key"
  if [ ! -s "$key_file" ]; then
    (umask 077; python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())' >"$key_file")
    log "generated a service-token key in $key_file"
  fi
  JWT_SIGNING_KEY=$(tr -d '\n' <"$key_file")
fi
export JWT_SIGNING_KEY

# --- processes -------------------------------------------------------------------------
pids=()   # started processes, in start order
names=()

prefix() { sed -u "s/^/[$1] /"; } # prefixes each line of stdin with [NAME], unbuffered

start() { # start NAME COMMAND... (the environment is the caller's)
  local name=$1; shift
  "$@" > >(prefix "$name") 2>&1 &
  pids+=("$!")
  names+=("$name")
}

stopping=0
shutdown() {
  local code=${1:-0}
  [ "$stopping" = 1 ] && return
  stopping=1
  trap '' INT TERM
  log "stopping"
  # The gateway first (it drains calls in flight), then the services, then the stores.
  local i pid
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[$i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      log "${names[$i]} did not stop within 10 s: killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
  done
  log "stopped"
  exit "$code"
}
trap 'shutdown 130' INT
trap 'shutdown 143' TERM
trap 'shutdown $?' EXIT

check_alive() {
  local i
  for i in "${!pids[@]}"; do
    if ! kill -0 "${pids[$i]}" 2>/dev/null; then
      local code=0
      wait "${pids[$i]}" 2>/dev/null || code=$?
      log "${names[$i]} exited (status $code)"
      return 1
    fi
  done
}

tcp_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

deadline=$((SECONDS + STARTUP_TIMEOUT))
wait_for() { # wait_for WHAT COMMAND...
  local what=$1; shift
  until "$@"; do
    check_alive || shutdown 1
    [ "$SECONDS" -lt "$deadline" ] || { log "$what did not come up within ${STARTUP_TIMEOUT}s"; shutdown 1; }
    sleep 0.2
  done
}

if [ -z "${REDIS_URL:-}" ]; then
  command -v "$REDIS_SERVER" >/dev/null || die "redis-server is missing: apt-get install -y redis-server (or set REDIS_URL)"
  # Append-only persistence into DATA_ROOT/redis (fsync once a second, at most a second lost):
  # sessions and rate-limit counters survive a restart of Redis, as they should in production.
  mkdir -p "$DATA_ROOT/redis"
  start redis "$REDIS_SERVER" --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$DATA_ROOT/redis" \
    --appendonly yes --appendfsync everysec --save ''
  # (--save '' turns off the RDB snapshots: the append-only file alone is the copy.)
  REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
fi
if [ -z "${MONGODB_URI:-}" ]; then
  if [ ! -x "$SECANTUSD" ]; then
    log "installing SecantusDB into $root/.tools/secantus (once; same as make tools)"
    python3 -m venv "$root/.tools/secantus"
    "$root/.tools/secantus/bin/pip" install --quiet secantusdb==0.7.0b3
  fi
  mkdir -p "$DATA_ROOT/mongo"
  # With the transaction lifetime deploy/README.md asks of a MongoDB (scripts/secantusd.py).
  start secantusdb "$(dirname "$SECANTUSD")/python3" "$root/scripts/secantusd.py" \
    --host 127.0.0.1 --port "$MONGO_PORT" --storage-path "$DATA_ROOT/mongo"
  MONGODB_URI="mongodb://127.0.0.1:$MONGO_PORT"
  wait_for SecantusDB tcp_open "$MONGO_PORT"
fi
export MONGODB_URI REDIS_URL
if [ -n "${REDIS_PORT:-}" ]; then wait_for Redis tcp_open "$REDIS_PORT"; fi

GATEWAY_METRICS_ADDR=$(metrics_addr 0)
SHIPMENTS_METRICS_ADDR=$(metrics_addr 1)
AUTH_METRICS_ADDR=$(metrics_addr 2)
NOTIFICATIONS_METRICS_ADDR=$(metrics_addr 3)
PREFERENCES_METRICS_ADDR=$(metrics_addr 4)
SHIPMENTS_ADDR=127.0.0.1:$SHIPMENTS_PORT METRICS_ADDR=$SHIPMENTS_METRICS_ADDR start shipments "$BIN_DIR/shipments"
AUTH_ADDR=127.0.0.1:$AUTH_PORT METRICS_ADDR=$AUTH_METRICS_ADDR start auth "$BIN_DIR/auth"
NOTIFICATIONS_ADDR=127.0.0.1:$NOTIFICATIONS_PORT METRICS_ADDR=$NOTIFICATIONS_METRICS_ADDR start notifications "$BIN_DIR/notifications"
PREFERENCES_ADDR=127.0.0.1:$PREFERENCES_PORT METRICS_ADDR=$PREFERENCES_METRICS_ADDR start preferences "$BIN_DIR/preferences"
for p in "$SHIPMENTS_PORT" "$AUTH_PORT" "$NOTIFICATIONS_PORT" "$PREFERENCES_PORT"; do
  wait_for "the service on port $p" tcp_open "$p"
done

export SHIPMENTS_URL=http://127.0.0.1:$SHIPMENTS_PORT
export AUTH_URL=http://127.0.0.1:$AUTH_PORT
export NOTIFICATIONS_URL=http://127.0.0.1:$NOTIFICATIONS_PORT
export PREFERENCES_URL=http://127.0.0.1:$PREFERENCES_PORT
export PUBLIC_URL=${PUBLIC_URL:-http://localhost:$PORT}
# Written before the gateway starts: whoever waits for the site may read it at once.
(umask 077; {
  echo "# Written by scripts/run-distributed.sh at its start."
  echo "SHIPMENTS_URL=$SHIPMENTS_URL"
  echo "AUTH_URL=$AUTH_URL"
  echo "NOTIFICATIONS_URL=$NOTIFICATIONS_URL"
  echo "PREFERENCES_URL=$PREFERENCES_URL"
  echo "REDIS_URL=$REDIS_URL"
  echo "MONGODB_URI=$MONGODB_URI"
  echo "MONGODB_DATABASE=$MONGODB_DATABASE"
  echo "GATEWAY_URL=http://127.0.0.1:$PORT"
  echo "JWT_SIGNING_KEY=$JWT_SIGNING_KEY"
  for name in GATEWAY SHIPMENTS AUTH NOTIFICATIONS PREFERENCES; do
    var=${name}_METRICS_ADDR
    echo "$var=${!var}"
  done
} >"$DATA_ROOT/endpoints.env")
METRICS_ADDR=$GATEWAY_METRICS_ADDR start gateway "$BIN_DIR/gateway"

healthy() {
  python3 - "$PORT" <<'EOF'
import sys, urllib.request
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=2) as r:
        sys.exit(0 if r.status == 200 else 1)
except Exception:
    sys.exit(1)
EOF
}
wait_for "the gateway (/healthz)" healthy


if [ -n "${ADMIN_PASSWORD:-}" ]; then
  credentials="${ADMIN_EMAIL:-admin@example.com} with the password in ADMIN_PASSWORD (if no user existed yet at the first start)"
else
  credentials="on the first start, ${ADMIN_EMAIL:-admin@example.com} with the password the [auth] log printed above (once); later, the accounts already in $DATA_ROOT"
fi
cat >&2 <<EOF

[run-distributed] Parcel Shipping Express, distributed, is up:
  Website:      http://localhost:$PORT/   (track: http://localhost:$PORT/track)
  Admin:        http://localhost:$PORT/administration_and_development/login
  Admin login:  $credentials
  Services:     shipments $SHIPMENTS_URL, auth $AUTH_URL, notifications $NOTIFICATIONS_URL, preferences $PREFERENCES_URL
  Stores:       Redis $REDIS_URL, MongoDB $MONGODB_URI (database $MONGODB_DATABASE)
  Data:         $DATA_ROOT (endpoints.env lists the above for tools)
  Ctrl-C stops everything.

EOF

while true; do
  check_alive || shutdown 1
  sleep 1 &
  wait $! || true
done
