#!/usr/bin/env bash
# Runs a command with TEST_MONGODB_URI pointing at a MongoDB-compatible server:
# MONGODB_URI if you set one (a real MongoDB), else a throw-away SecantusDB on a free port.
set -euo pipefail
if [ -n "${MONGODB_URI:-}" ]; then
  echo "MongoDB tests run against MONGODB_URI (a real MongoDB)" >&2
  TEST_MONGODB_URI="$MONGODB_URI" exec "$@"
fi
secantusd="${SECANTUSD:-.tools/secantus/bin/secantusd-py}"
[ -x "$secantusd" ] || { echo "SecantusDB is missing at $secantusd: run 'make tools'" >&2; exit 1; }
port=$(python3 "$(dirname "$0")/ports.py")
"$secantusd" --host 127.0.0.1 --port "$port" --storage-path :memory: >"${TMPDIR:-/tmp}/secantus-$port.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  if python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; then break; fi
  sleep 0.1
done
echo "MongoDB tests run against SecantusDB on port $port" >&2
TEST_MONGODB_URI="mongodb://127.0.0.1:$port" "$@"
