#!/usr/bin/env bash
# How long each stage of `make test` took, printed at its end, also when a stage failed.
#   scripts/stage-times.sh run CMD...  runs CMD (a make) with STAGE_LOG set, then prints the table
#   scripts/stage-times.sh mark NAME   a target's first recipe line: NAME starts now (no-op
#                                      outside `run`, so every target still works on its own)
set -euo pipefail
case "${1:-}" in
mark)
  if [ -n "${STAGE_LOG:-}" ]; then
    echo "$2 $(date +%s)" >>"$STAGE_LOG"
    echo "==> $2" >&2
  fi
  ;;
run)
  shift
  STAGE_LOG=$(mktemp)
  export STAGE_LOG
  trap 'rm -f "$STAGE_LOG"' EXIT
  start=$(date +%s)
  status=0
  "$@" || status=$?
  echo "$(if [ "$status" = 0 ]; then echo end; else echo FAILED; fi) $(date +%s)" >>"$STAGE_LOG"
  # Make runs one recipe at a time, so a stage lasts until the next one starts.
  awk -v start="$start" '
    { name[NR] = $1; at[NR] = $2 }
    END {
      printf "\nStage times (s):\n"
      for (i = 1; i < NR; i++) printf "  %-24s %6d\n", name[i], at[i + 1] - at[i]
      failed = name[NR] != "FAILED" ? "" : (NR > 1 ? "  (FAILED in " name[NR - 1] ")" : "  (FAILED)")
      printf "  %-24s %6d%s\n", "total", at[NR] - start, failed
    }' "$STAGE_LOG"
  exit "$status"
  ;;
*)
  echo "usage: $0 run CMD... | mark NAME" >&2
  exit 2
  ;;
esac
