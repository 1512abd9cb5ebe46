#!/bin/bash
# NEAR MISS, must score 0: step s2 solved with the mistake "first-record-as-header": skips the first record as if it were a header line
# Reference solution from Envolve's procedural synthesiser: one fragment per step, each reading
# its data (and the answers it depends on) at run time and writing /app/out/<step>.txt.
set -euo pipefail
export LC_ALL=C
mkdir -p /app/out

# s1: sort-uniq-count over web-access-log
d=/app/data/s1
out=/app/out/s1.txt
extract() { awk -v OFS='\t' 'BEGIN{split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec",mn," ");for(i=1;i<=12;i++)M[mn[i]]=sprintf("%02d",i)} {split(substr($4,2),a,/[\/:]/); p=substr($7,2); u=$0; sub(/^.*" "/,"",u); sub(/"$/,"",u); print $1,$10,a[3]"-"M[a[2]]"-"a[1]"T"a[4]":"a[5]":"a[6]"Z",$9,p,u}' | awk -F'\t' -v OFS='\t' '$6 !~ /^kube-probe\// { print $1, $2, $3, $4, $5 }'; }
extract < "$d/access.log" | cut -f1 | sort | uniq -c | sort -k1,1nr -k2,2 | awk 'NR == 1 { print $2, $1 }' > "$out"

# s2: awk-fields over auth-syslog
d="/app/data/s2/$(awk 'NR == 1 { print $1; exit }' /app/out/s1.txt)"
out=/app/out/s2.txt
extract() { awk -v OFS='\t' '{print $6,$10,$1,$4,$8,$2}' | awk -F'\t' -v OFS='\t' '$6 == "bastion" { print $1, $2, $3, $4, $5 }'; }
c='Accepted-password'; extract < "$d/auth.log" | awk -F'\t' -v c="$c" 'NR > 1 && $4 == c { t += $2 } END { printf "%.0f\n", t }' > "$out"
