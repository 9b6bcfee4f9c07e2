#!/usr/bin/env bash
# `make test`: every stage of the Makefile in the order below, two side by side where one of
# them leaves a core idle (the Rust build with the downloads, the deploy checks and the web
# build; the Rust tests, which mostly wait on the services they started, with the web unit
# tests), then how long each stage took, also when one failed. ESLint with types runs alone:
# it took 26 s so, but 336 s beside the Rust build and 138 s beside the Rust tests, slowing
# both. The fault test runs alone: beside the Rust tests SecantusDB, starved, answered the
# restarted services' writes only after 20-30 s (its limit is 5 s). The smoke benchmark runs
# alone: beside the distributed browser tests it broke off (SIGPIPE) after seeding.
#   A line of the plan is one stage, or `a b | c d`: the stages a then b, while c then d run.
#   The output of the right-hand side is shown when it ends, whole, after a `==> name` line.
#   Each stage is `make STAGE` with the other stages taken as done (`-o`): a stage's own
#   prerequisites are stages the plan ran before it.
set -uo pipefail
cd "$(dirname "$0")/.."

PLAN=(
  "system-packages"
  "lint-rust"
  "build-rust | npm-ci install-buf tools check-deploy frontend"
  "lint-frontend | test-faults"
  "test-rust | test-frontend check-metrics bench-smoke"
  "test-e2e"
  "test-e2e-distributed"
)

read -ra ALL <<<"$(printf '%s ' "${PLAN[@]}" | tr -d '|')"
LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT
START=$(date +%s)

# stage NAME: runs it, appends "NAME start end status" to the table.
stage() {
  local name=$1 others=() s begun status
  for s in "${ALL[@]}"; do [ "$s" = "$name" ] || others+=(-o "$s"); done
  echo "==> $name"
  begun=$(date +%s)
  ${MAKE:-make} --no-print-directory "${others[@]}" "$name"
  status=$?
  echo "$name $((begun - START)) $(($(date +%s) - begun)) $status" >>"$LOG/table"
  return "$status"
}

# chain STAGE...: one after another, stopping at the first that fails.
chain() {
  local s
  for s in "$@"; do stage "$s" || return 1; done
}

ok=true
for line in "${PLAN[@]}"; do
  if [[ $line == *"|"* ]]; then
    read -ra left <<<"${line%%|*}"
    read -ra right <<<"${line#*|}"
    chain "${right[@]}" >"$LOG/right" 2>&1 &
    side=$!
    chain "${left[@]}" || ok=false
    wait "$side" || ok=false
    cat "$LOG/right"
  else
    read -ra seq <<<"$line"
    chain "${seq[@]}" || ok=false
  fi
  $ok || break
done
failed=$(awk '$4 != 0 { printf "%s%s", sep, $1; sep = ", " }' "$LOG/table")

printf '\nStage times (s), from the start of make test:\n'
printf '  %-22s %6s %6s\n' stage start took
while read -r name begun took status; do
  printf '  %-22s %6d %6d%s\n' "$name" "$begun" "$took" "$([ "$status" = 0 ] || echo '  FAILED')"
done <"$LOG/table"
printf '  %-22s %6s %6d%s\n' total "" $(($(date +%s) - START)) "${failed:+  (FAILED in $failed)}"
$ok
