#!/bin/bash
# Verifier: compares /app/reconciliation.json with the known reconciliation of
# the seeded CSVs (computed with Python's decimal module when the data was
# generated, not by the reference solution). Always writes the reward itself.
mkdir -p /logs/verifier

if python3 - <<'PY'
import json
import re
import sys

EXPECTED = {
    "matched": 110,
    "amount_mismatches": [
        {"txn_id": "TXN-00004", "ledger_amount": "-480.89", "bank_amount": "-475.42"},
        {"txn_id": "TXN-00052", "ledger_amount": "1603.16", "bank_amount": "1595.72"},
        {"txn_id": "TXN-00053", "ledger_amount": "-729.92", "bank_amount": "-735.14"},
        {"txn_id": "TXN-00077", "ledger_amount": "361.92", "bank_amount": "368.30"},
    ],
    "missing_in_bank": ["TXN-00016", "TXN-00019", "TXN-00055", "TXN-00070", "TXN-00096", "TXN-00101"],
    "missing_in_ledger": ["TXN-00900", "TXN-00907", "TXN-00914", "TXN-00921", "TXN-00928"],
    "ledger_total": "68156.56",
    "bank_total": "68046.34",
}
AMOUNT = re.compile(r"^-?\d+\.\d{2}$")

def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)

try:
    with open("/app/reconciliation.json") as f:
        result = json.load(f)
except FileNotFoundError:
    fail("/app/reconciliation.json does not exist")
except json.JSONDecodeError as e:
    fail(f"/app/reconciliation.json is not valid JSON: {e}")

if not isinstance(result, dict):
    fail("the result must be a JSON object")
if set(result) != set(EXPECTED):
    fail(f"keys must be exactly {sorted(EXPECTED)}, got {sorted(result)}")
if not isinstance(result["matched"], int) or isinstance(result["matched"], bool):
    fail(f"matched must be an integer, got {result['matched']!r}")
for key in ("ledger_total", "bank_total"):
    if not isinstance(result[key], str) or not AMOUNT.match(result[key]):
        fail(f"{key} must be a string with two decimals, got {result[key]!r}")
for row in result["amount_mismatches"] if isinstance(result["amount_mismatches"], list) else []:
    for key in ("ledger_amount", "bank_amount"):
        if not isinstance(row, dict) or not isinstance(row.get(key), str) or not AMOUNT.match(row[key]):
            fail(f"amount_mismatches entry {row!r}: {key} must be a string with two decimals")
for key, expected in EXPECTED.items():
    if result[key] != expected:
        fail(f"{key} is {result[key]!r}, expected {expected!r}")
print("PASS: reconciliation matches")
PY
then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
