import { formatValue, isoTime } from '../records.ts';
import { distinctKeys, lines, pad, type Scenario } from '../scenario.ts';

export const paymentsLedger: Scenario = {
  name: 'payments-ledger',
  title: 'Payments ledger',
  fileName: 'ledger.csv',
  format: 'CSV with the header `account,amount,posted_at,kind,memo`; amounts have two decimals, times are ISO 8601 UTC.',
  nouns: { record: 'ledger entry', records: 'ledger entries', key: 'account', value: 'amount', time: 'posting time', category: 'kind', text: 'memo' },
  columns: { key: 'account', value: 'amount', time: 'posted_at', category: 'kind', text: 'memo' },
  value: { decimals: 2, min: 100, max: 500_000 },
  categories: ['debit', 'credit', 'refund', 'fee', 'chargeback'],
  texts: ['invoice-payment', 'payroll', 'wire-in', 'card-settlement', 'subscription', 'vendor-payout'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `ACC-${pad(r.int(1000, 9999), 4)}`),
  render: (records) =>
    lines(['account,amount,posted_at,kind,memo', ...records.map((r) => [r.key, formatValue(r.value, 2), isoTime(r.time), r.category, r.text].join(','))]),
  extract: `tail -n +2 | awk -F, -v OFS='\\t' '{print $1,$2,$3,$4,$5}'`,
};
