#!/bin/bash
# Reference solution: summarise /app/access.log with awk, sort and uniq, then
# assemble the JSON with jq. Fields: $1 is the client IP, $9 the status, $10 the size.
set -euo pipefail
cd /app
export LC_ALL=C  # byte order for the tie-break between equally busy IPs

total=$(awk 'END { print NR }' access.log)
unique=$(awk '{ print $1 }' access.log | sort -u | wc -l)
errors=$(awk '$9 >= 500 && $9 <= 599 { n++ } END { print n + 0 }' access.log)
bytes=$(awk '$10 != "-" { s += $10 } END { printf "%d\n", s }' access.log)
top=$(awk '{ print $1 }' access.log | sort | uniq -c | sort -k1,1nr -k2,2 | head -n 5 |
  awk '{ print $2, $1 }' | jq -R -s 'split("\n") | map(select(length > 0) | split(" ") | {ip: .[0], requests: (.[1] | tonumber)})')

jq -n --argjson total "$total" --argjson unique "$unique" --argjson top "$top" \
  --argjson errors "$errors" --argjson bytes "$bytes" \
  '{total_requests: $total, unique_ips: $unique, top_ips: $top, server_errors: $errors, bytes_sent: $bytes}' \
  > report.json
