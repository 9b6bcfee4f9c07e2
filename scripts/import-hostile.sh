#!/usr/bin/env bash
# The memory a hostile CSV import costs the gateway: each file below is uploaded and checked
# (as the Import page's Check file does) by a manager, and the gateway's peak RSS rise during
# that request is printed (VmHWM after, against VmRSS before, the peak reset in between).
# Usage: scripts/import-hostile.sh URL GATEWAY_PID BENCH_IMPORT EMAIL PASSWORD [SIZE_MB]
# Prints one line per file: "import <shape>: +N MB peak RSS, <answer>"; the largest rise last.
set -euo pipefail
url=$1 pid=$2 bench_import=$3 email=$4 password=$5 size_mb=${6:-20}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$size_mb" <<'PY'
import sys
d, mb = sys.argv[1], int(sys.argv[2])
n = mb * 1_000_000
header = ("tracking_number,status,shipper_name,shipper_address,shipper_phone,shipper_email,"
          "receiver_name,receiver_address,receiver_phone,receiver_email,origin,destination,"
          "current_location,carrier,type_of_shipment,shipment_mode,package_count,product,"
          "product_quantity,payment_mode,total_freight,weight_kg,expected_delivery_date,"
          "departure_time,pickup_date,pickup_time,comments,packages,created_at,"
          "external_reference\n").encode()
files = {
    "header-3M-columns": b"," * 3_000_000,
    "header-one-huge-line": b"x" * n,
    "huge-quoted-field": header + b'"' + b"y" * n + b'",' + b"," * 28 + b"\n",
    "quote-never-closed": header + b'"' + b"a,b\n" * (n // 4),
    "millions-of-empty-cells": header + b"," * n,
    "millions-of-tiny-rows": header + b"a\n" * (n // 2),
    "cr-only-line-ends": header.replace(b"\n", b"\r") + b"a\r" * (n // 2),
    "nul-bytes-utf16": "\ufefftracking_number,status\n".encode("utf-16-le") + b"\0" * n,
}
for name, data in files.items():
    open(f"{d}/{name}.csv", "wb").write(data)
PY
# A small file first, so the first shape is not charged for the gateway's warming up.
printf '%s\n' "tracking_number,status" "x,y" >"$dir/warm-up.txt"
"$bench_import" --url "$url" --email "$email" --password "$password" --check "$dir/warm-up.txt" >/dev/null
kb() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$pid/status"; }
worst=0
for file in "$dir"/*.csv; do
  shape=$(basename "$file" .csv)
  echo 5 >"/proc/$pid/clear_refs" # resets VmHWM to the current RSS
  before=$(kb VmRSS)
  answer=$({ "$bench_import" --url "$url" --email "$email" --password "$password" --check "$file" 2>&1 || true; } | tail -1 |
    sed 's|/logistics.v1.ShipmentService/StartShipmentImport failed: Some("[0-9]*") ||' | cut -c1-110)
  rise=$(( ($(kb VmHWM) - before) / 1024 ))
  [ "$rise" -gt "$worst" ] && worst=$rise
  printf 'import %-26s +%4d MB peak RSS (%3d MB file)  %s\n' "$shape" "$rise" "$(( $(stat -c %s "$file") / 1000000 ))" "$answer"
done
echo "import hostile files: largest peak RSS rise +$worst MB"
