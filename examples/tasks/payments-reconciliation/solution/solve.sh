#!/bin/bash
# Reference solution: load both CSVs into an in-memory SQLite database (its CSV
# importer understands quoted fields), work in integer cents, emit JSON with
# SQLite's JSON functions.
set -euo pipefail
cd /app

sqlite3 :memory: <<'SQL' > reconciliation.json
.mode csv
.import ledger.csv ledger
.import bank_statement.csv bank
.mode list
CREATE TABLE l AS SELECT txn_id, CAST(round(amount * 100) AS INTEGER) AS cents FROM ledger;
CREATE TABLE b AS SELECT txn_id, CAST(round(amount * 100) AS INTEGER) AS cents FROM bank;
SELECT json_object(
  'matched', (SELECT count(*) FROM l JOIN b USING (txn_id) WHERE l.cents = b.cents),
  'amount_mismatches', (SELECT json_group_array(json(m)) FROM (
      SELECT json_object('txn_id', txn_id,
                         'ledger_amount', printf('%s%d.%02d', CASE WHEN l.cents < 0 THEN '-' ELSE '' END, abs(l.cents) / 100, abs(l.cents) % 100),
                         'bank_amount', printf('%s%d.%02d', CASE WHEN b.cents < 0 THEN '-' ELSE '' END, abs(b.cents) / 100, abs(b.cents) % 100)) AS m
      FROM l JOIN b USING (txn_id) WHERE l.cents <> b.cents ORDER BY txn_id)),
  'missing_in_bank', (SELECT json_group_array(txn_id) FROM (
      SELECT txn_id FROM l WHERE txn_id NOT IN (SELECT txn_id FROM b) ORDER BY txn_id)),
  'missing_in_ledger', (SELECT json_group_array(txn_id) FROM (
      SELECT txn_id FROM b WHERE txn_id NOT IN (SELECT txn_id FROM l) ORDER BY txn_id)),
  'ledger_total', (SELECT printf('%s%d.%02d', CASE WHEN sum(cents) < 0 THEN '-' ELSE '' END, abs(sum(cents)) / 100, abs(sum(cents)) % 100) FROM l),
  'bank_total', (SELECT printf('%s%d.%02d', CASE WHEN sum(cents) < 0 THEN '-' ELSE '' END, abs(sum(cents)) / 100, abs(sum(cents)) % 100) FROM b)
);
SQL
