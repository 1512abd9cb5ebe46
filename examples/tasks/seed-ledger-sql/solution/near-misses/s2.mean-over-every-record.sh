#!/bin/bash
# NEAR MISS, must score 0: step s2 solved with the mistake "mean-over-every-record": divides the total by the number of all stock counts, not of this SKU's
# Reference solution from Envolve's procedural synthesiser: one fragment per step, each reading
# its data (and the answers it depends on) at run time and writing /app/out/<step>.txt.
set -euo pipefail
export LC_ALL=C
mkdir -p /app/out

# s1: sqlite-sql over payments-ledger
d=/app/data/s1
out=/app/out/s1.txt
extract() { gawk -v FPAT='([^,]*)|("[^"]*")' -v OFS='\t' 'NR > 1 { print $2, $4, $5, $6, $7, $1 " " ($8 == "" ? "-" : $8) }' | awk -F'\t' -v OFS='\t' '{ split($6, a, " "); id[NR] = a[1]; if (a[2] != "-") { gone[a[1]] = 1; gone[a[2]] = 1 } row[NR] = $1 OFS $2 OFS $3 OFS $4 OFS $5 } END { for (i = 1; i <= NR; i++) if (!(id[i] in gone)) print row[i] }'; }
sqlite3 -separator ' ' "$d/records.db" > "$out" <<'SQL'
SELECT "kind", printf('%.2f', SUM(CAST(ROUND(CAST("amount" AS REAL) * 100) AS INTEGER)) / 100.0) FROM records GROUP BY "kind" ORDER BY SUM(CAST(ROUND(CAST("amount" AS REAL) * 100) AS INTEGER)) DESC, "kind" LIMIT 1;
SQL

# s2: bc-arithmetic over inventory-csv
d="/app/data/s2/$(awk 'NR == 1 { print $1; exit }' /app/out/s1.txt)"
out=/app/out/s2.txt
extract() { tail -n +2 | awk -F';' -v OFS='\t' '{print $1,$2,$3,$4,$5,$6}' | awk -F'\t' -v OFS='\t' '$6 == "final" { print $1, $2, $3, $4, $5 }'; }
values=$(extract < "$d/inventory.csv" | awk -F'\t' -v k='SKU-55629' '$1 == k { print $2 }')
count=$(extract < "$d/inventory.csv" | wc -l)
total=$(printf '%s\n' "$values" | paste -sd+ | bc)
echo "$(printf '%.0f' "$total") $(echo "scale=2; $total / $count" | bc)" > "$out"
