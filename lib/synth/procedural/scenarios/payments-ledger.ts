// Payments ledger (CSV with quoted descriptions). Rule: a reversal entry cancels the entry it
// names, so neither counts.
import { formatValue, isoTime, type FileRecord } from '../records.ts';
import { defineScenario, distinctKeys, lines, pad, pickFor, weaveGhosts } from '../scenario.ts';

const DESCRIPTIONS = ['"Invoice 2024-031, net 30"', 'Card settlement', '"Wire in, ref 8812"', 'Monthly plan', '"Payout, vendor batch 7"', 'Payroll run'];

const txn = (i: number) => `T${pad(10_001 + i, 5)}`;

// Row i's attribute is "ID REVERSED" ("-" when it reverses nothing); a reversal follows the entry it cancels.
function numbered(rows: FileRecord[]): FileRecord[] {
  return rows.map((r, i) => ({ ...r, attr: `${txn(i)} ${r.attr === 'reversal' ? txn(i - 1) : '-'}` }));
}

export const paymentsLedger = defineScenario({
  name: 'payments-ledger',
  title: 'Payments ledger',
  fileName: 'ledger.csv',
  format:
    "CSV with the header `txn_id,account,description,amount,posted_at,kind,memo,reverses`; a description that contains a comma is double-quoted, amounts have two decimals, times are ISO 8601 UTC, `reverses` is empty or another entry's `txn_id`.",
  nouns: { record: 'ledger entry', records: 'ledger entries', key: 'account', value: 'amount', time: 'posting time', category: 'kind', text: 'memo' },
  columns: { key: 'account', value: 'amount', time: 'posted_at', category: 'kind', text: 'memo' },
  value: { decimals: 2, min: 100, max: 500_000 },
  categories: ['debit', 'credit', 'refund', 'fee', 'chargeback'],
  texts: ['invoice-payment', 'payroll', 'wire-in', 'card-settlement', 'subscription', 'vendor-payout'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `ACC-${pad(r.int(1000, 9999), 4)}`),
  rule: {
    name: 'reversals-cancel',
    describe:
      'An entry of kind `reversal` cancels the entry whose `txn_id` its `reverses` field names: neither the reversal nor the entry it reverses counts as a ledger entry for any question of this step.',
    column: 'txn_reverses',
    columnMeaning: "the entry's `txn_id`, a space, and the `txn_id` it reverses (`-` when it reverses none)",
    weave: (records, value) =>
      numbered(
        weaveGhosts(
          records,
          value,
          () => '',
          (ghost) => [
            { ...ghost, time: ghost.time - 10, attr: '' },
            // The reversal books the amount it reverses, so a total over every row counts it twice.
            { ...ghost, category: 'reversal', attr: 'reversal' },
          ],
        ),
      ),
    // Two passes over the rows: a reversal may name an entry anywhere in the file.
    filter: `awk -F'\\t' -v OFS='\\t' '{ split($6, a, " "); id[NR] = a[1]; if (a[2] != "-") { gone[a[1]] = 1; gone[a[2]] = 1 } row[NR] = $1 OFS $2 OFS $3 OFS $4 OFS $5 } END { for (i = 1; i <= NR; i++) if (!(id[i] in gone)) print row[i] }'`,
  },
  renderRows: (rows) =>
    lines([
      'txn_id,account,description,amount,posted_at,kind,memo,reverses',
      ...rows.map((r) => {
        const [id, reverses] = r.attr.split(' ') as [string, string];
        return [
          id,
          r.key,
          pickFor(r, DESCRIPTIONS, 'description'),
          formatValue(r.value, 2),
          isoTime(r.time),
          r.category,
          r.text,
          reverses === '-' ? '' : reverses,
        ].join(',');
      }),
    ]),
  parse: `gawk -v FPAT='([^,]*)|("[^"]*")' -v OFS='\\t' 'NR > 1 { print $2, $4, $5, $6, $7, $1 " " ($8 == "" ? "-" : $8) }'`,
});
