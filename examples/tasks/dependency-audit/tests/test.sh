#!/bin/bash
# Verifier: compares /app/audit.json with the known findings for the seeded
# lock file and advisories (worked out when the data was generated, not by the
# reference solution). Always writes the reward itself: 1 on a full match, else 0.
mkdir -p /logs/verifier

if python3 - <<'PY'
import json
import sys

def finding(package, installed, advisory, severity, fixed_in):
    return {"package": package, "installed": installed, "advisory": advisory, "severity": severity, "fixed_in": fixed_in}

EXPECTED_FINDINGS = [
    finding("cookie", "2.6.0", "GHSA-co-3139", "medium", "2.7.0"),
    finding("handlebars", "0.3.10", "GHSA-ha-3385", "low", "0.5.10"),
    finding("lodash", "4.0.14", "GHSA-lo-3445", "low", "4.2.14"),
    finding("marked", "2.2.10", "GHSA-ma-6633", "high", "2.5.10"),
    finding("qs", "6.10.3", "GHSA-qs-0002", "medium", "6.11.0"),
    finding("semver", "5.7.1", "GHSA-sm-0001", "medium", "5.7.2"),
    finding("send", "0.7.1", "GHSA-se-3773", "critical", "0.10.1"),
    finding("ws", "8.9.0", "GHSA-ws-0001", "high", "8.17.1"),
]
EXPECTED_COUNTS = {"critical": 1, "high": 2, "medium": 3, "low": 2}

def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)

try:
    with open("/app/audit.json") as f:
        audit = json.load(f)
except FileNotFoundError:
    fail("/app/audit.json does not exist")
except json.JSONDecodeError as e:
    fail(f"/app/audit.json is not valid JSON: {e}")

if not isinstance(audit, dict) or set(audit) != {"findings", "counts"}:
    fail("audit.json must be an object with exactly the keys findings and counts")
findings = audit["findings"]
if not isinstance(findings, list):
    fail("findings must be an array")
reported = {(f.get("package"), f.get("advisory")) for f in findings if isinstance(f, dict)}
expected = {(f["package"], f["advisory"]) for f in EXPECTED_FINDINGS}
if reported - expected:
    fail(f"reported advisories that do not apply: {sorted(reported - expected)}")
if expected - reported:
    fail(f"missed advisories: {sorted(expected - reported)}")
if findings != EXPECTED_FINDINGS:
    fail(f"findings have the right pairs but wrong fields or order: {findings!r}")
if audit["counts"] != EXPECTED_COUNTS:
    fail(f"counts is {audit['counts']!r}, expected {EXPECTED_COUNTS!r}")
print("PASS: audit matches")
PY
then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
