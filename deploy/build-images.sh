#!/usr/bin/env bash
# Builds (and with --push, pushes) the container images from deploy/docker/Dockerfile.
#
#   deploy/build-images.sh REGISTRY TAG [--push] [IMAGE...]
#   deploy/build-images.sh registry.example.com/logistics 1.4.2 --push             # all five
#   deploy/build-images.sh registry.example.com/logistics 1.4.2 --push shipments   # one
#
# Images: REGISTRY/gateway, REGISTRY/shipments, REGISTRY/auth, REGISTRY/notifications,
# REGISTRY/preferences, each tagged TAG. Needs Docker with BuildKit (docker buildx).
# DRY_RUN=1 prints the commands instead of running them. PLATFORM (default linux/amd64).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
registry=${1%/}; tag=$2; shift 2
output=(--load)
if [ "${1:-}" = --push ]; then output=(--push); shift; fi
all=(gateway shipments auth notifications preferences)
images=("$@"); [ ${#images[@]} -gt 0 ] || images=("${all[@]}")

run() { if [ -n "${DRY_RUN:-}" ]; then printf '%q ' "$@"; echo; else "$@"; fi; }

for bin in "${images[@]}"; do
  case " ${all[*]} " in *" $bin "*) ;; *) echo "unknown image: $bin (one of: ${all[*]})" >&2; exit 2 ;; esac
  target=service; [ "$bin" = gateway ] && target=gateway
  run docker buildx build \
    --file deploy/docker/Dockerfile \
    --target "$target" \
    --build-arg "BIN=$bin" \
    --platform "${PLATFORM:-linux/amd64}" \
    --label "org.opencontainers.image.version=$tag" \
    --label "org.opencontainers.image.revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
    --tag "$registry/$bin:$tag" \
    "${output[@]}" \
    .
done
