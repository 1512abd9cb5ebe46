#!/bin/bash
# NEAR MISS, must score 0: step s1 solved with the mistake "no-category-filter": takes the largest value over every reading, not only those whose status is calibrating
# Reference solution from Envolve's procedural synthesiser: one fragment per step, each reading
# its data (and the answers it depends on) at run time and writing /app/out/<step>.txt.
set -euo pipefail
export LC_ALL=C
mkdir -p /app/out

# s1: jq-query over sensor-telemetry
d=/app/data/s1
out=/app/out/s1.txt
extract() { jq -r '[.sensor, .reading, (.ts | todate), .status, .note, (.valid | tostring)] | @tsv' | awk -F'\t' -v OFS='\t' '$6 == "true" { print $1, $2, $3, $4, $5 }'; }
jq -r 'max_by(.["reading"]) | "\(.["sensor"]) \(.["reading"])"' "$d/records.json" | awk '{ printf "%s %.2f\n", $1, $2 }' > "$out"
