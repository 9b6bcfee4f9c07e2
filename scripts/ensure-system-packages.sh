#!/usr/bin/env bash
# The system packages the tests need, installed when missing: `make test` runs this first
# (`make bench` with `nginx-light wrk` as extra arguments).
#
#   chromium       Lighthouse, and Playwright e2e where there is no headless shell (at $CHROMIUM,
#                  default /usr/bin/chromium)
#   chromium-headless-shell  the same engine without the desktop browser around it, which
#                  the e2e suite drives: a quarter faster on CI's two cores
#   redis-server   the session and rate-limit store tests start their own
#   python3-venv   SecantusDB, the MongoDB-compatible server of the store tests (.tools/secantus)
#   python3-aiosmtpd  the SMTP server the e-mail tests start (services/notifications/tests)
#   python3-trustme   the private CA that signs that server's certificate in the TLS tests
#   prometheus     promtool, which checks every process's /metrics (scripts/check-metrics.py)
#   zbar-tools     zbarimg, the barcode reader that decodes the server's PDF labels in a test
#   poppler-utils  pdftoppm, which draws those PDF pages as images for it
#
# On Debian or Ubuntu, as root or with passwordless sudo, the missing ones are installed with
# apt-get. Otherwise it stops at once and prints the one command that installs them.
#
# Usage: scripts/ensure-system-packages.sh [extra package ...]   (extras: nginx-light, wrk)
set -euo pipefail

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

# Whether the package's program is there (a package name → a check).
present() {
  case "$1" in
    chromium) [ -x "$CHROMIUM" ] ;;
    chromium-headless-shell) [ -x /usr/bin/chromium-headless-shell ] ;;
    redis-server) command -v redis-server >/dev/null 2>&1 ;;
    python3-venv) python3 -c 'import venv, ensurepip' >/dev/null 2>&1 ;;
    python3-aiosmtpd) /usr/bin/python3 -c 'import aiosmtpd' >/dev/null 2>&1 ;;
    python3-trustme) /usr/bin/python3 -c 'import trustme' >/dev/null 2>&1 ;;
    prometheus) command -v promtool >/dev/null 2>&1 ;;
    zbar-tools) command -v zbarimg >/dev/null 2>&1 ;;
    poppler-utils) command -v pdftoppm >/dev/null 2>&1 ;;
    nginx-light) command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] ;;
    wrk) command -v wrk >/dev/null 2>&1 ;;
  esac
}

for package in "$@"; do
  case "$package" in
    nginx-light | wrk) ;;
    *) echo "ensure-system-packages: unknown package '$package' (known extras: nginx-light, wrk)" >&2; exit 2 ;;
  esac
done

missing_packages() {
  local package
  for package in chromium chromium-headless-shell redis-server python3-venv python3-aiosmtpd python3-trustme prometheus zbar-tools poppler-utils "$@"; do
    present "$package" || echo "$package"
  done
}

mapfile -t missing < <(missing_packages "$@")
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "Missing system packages: ${missing[*]}." >&2
  echo "This is not a Debian or Ubuntu machine: install them with your package manager (Chromium can" >&2
  echo "be any Chromium or Chrome: CHROMIUM=/path/to/it make test), then run make test again." >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "Missing system packages: ${missing[*]}. Install them with:" >&2
  echo "" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  echo "" >&2
  echo "then run make test again." >&2
  exit 1
fi

echo "Installing the missing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

mapfile -t still < <(missing_packages "$@")
if [ ${#still[@]} -ne 0 ]; then
  echo "Still missing after apt-get install: ${still[*]}." >&2
  [[ " ${still[*]} " == *" chromium "* ]] &&
    echo "Chromium is expected at $CHROMIUM; point CHROMIUM at another Chromium or Chrome if it is elsewhere." >&2
  exit 1
fi
