#!/bin/bash
# Reference solution in jq: versions become arrays of numbers, which jq compares
# element by element, so 0.10.1 sorts above 0.7.1 as required.
set -euo pipefail
cd /app

jq -n --slurpfile lock package-lock.json --slurpfile adv advisories.json '
  def semver: split(".") | map(tonumber);
  ($lock[0].packages) as $installed
  | [ $adv[0].advisories[]
      | . as $a
      | $installed[$a.package] as $p
      | select($p != null and ($p.dev | not) and (($p.version | semver) < ($a.fixed_in | semver)))
      | {package: $a.package, installed: $p.version, advisory: $a.id, severity: $a.severity, fixed_in: $a.fixed_in} ]
  | sort_by(.package, .advisory) as $findings
  | {
      findings: $findings,
      counts: (reduce ("critical", "high", "medium", "low") as $s ({}; .[$s] = ([$findings[] | select(.severity == $s)] | length)))
    }
' > audit.json
