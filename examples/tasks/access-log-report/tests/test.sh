#!/bin/bash
# Verifier: compares /app/report.json with the known answers for the seeded
# access.log (computed when the log was generated, not by the reference
# solution). Always writes the reward itself: 1 when every check passes, else 0.
mkdir -p /logs/verifier

if python3 - <<'PY'
import json
import sys

EXPECTED = {
    "total_requests": 600,
    "unique_ips": 43,
    "top_ips": [
        {"ip": "203.0.113.7", "requests": 81},
        {"ip": "192.0.2.44", "requests": 75},
        {"ip": "198.51.100.23", "requests": 61},
        {"ip": "10.0.0.47", "requests": 20},
        {"ip": "10.0.0.222", "requests": 17},
    ],
    "server_errors": 64,
    "bytes_sent": 13729609,
}

def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)

try:
    with open("/app/report.json") as f:
        report = json.load(f)
except FileNotFoundError:
    fail("/app/report.json does not exist")
except json.JSONDecodeError as e:
    fail(f"/app/report.json is not valid JSON: {e}")

if not isinstance(report, dict):
    fail("report must be a JSON object")
if set(report) != set(EXPECTED):
    fail(f"keys must be exactly {sorted(EXPECTED)}, got {sorted(report)}")
for key in ("total_requests", "unique_ips", "server_errors", "bytes_sent"):
    value = report[key]
    if not isinstance(value, int) or isinstance(value, bool):
        fail(f"{key} must be an integer, got {value!r}")
    if value != EXPECTED[key]:
        fail(f"{key} is {value}, expected {EXPECTED[key]}")
if report["top_ips"] != EXPECTED["top_ips"]:
    fail(f"top_ips is {report['top_ips']}, expected {EXPECTED['top_ips']}")
print("PASS: report matches")
PY
then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
