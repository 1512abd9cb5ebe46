import { isoTime } from '../records.ts';
import { AWK_MONTHS, distinctKeys, lines, type Scenario } from '../scenario.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function rfc2822(seconds: number): string {
  const d = new Date(seconds * 1000);
  const day = String(d.getUTCDate()).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]}, ${day} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${isoTime(seconds).slice(11, 19)} +0000`;
}

export const mailSpool: Scenario = {
  name: 'mail-spool',
  title: 'Mail spool (mbox)',
  fileName: 'spool.mbox',
  format:
    'mbox: each message starts with a `From ` line and has `From:`, `Date:` (RFC 2822, UTC), `Subject:`, `X-Folder:` and `X-Size:` headers, a blank line and a one-line body.',
  nouns: {
    record: 'message',
    records: 'messages',
    key: 'sender address',
    value: 'size in bytes (X-Size)',
    time: 'Date header',
    category: 'folder (X-Folder)',
    text: 'subject',
  },
  columns: { key: 'sender', value: 'size', time: 'date', category: 'folder', text: 'subject' },
  value: { decimals: 0, min: 200, max: 90_000 },
  categories: ['inbox', 'billing', 'alerts', 'support', 'archive'],
  texts: ['invoice-overdue', 'disk-alert', 'weekly-report', 'password-reset', 'meeting-notes', 'build-failed'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `${r.pick(['ana', 'bo', 'chen', 'dara', 'eli', 'femi', 'gus', 'hana'])}.${r.int(1, 99)}@corp.example`),
  render: (records) =>
    lines(
      records.map((r) =>
        [
          `From ${r.key} ${new Date(r.time * 1000).toUTCString()}`,
          `From: ${r.key}`,
          `Date: ${rfc2822(r.time)}`,
          `Subject: ${r.text}`,
          `X-Folder: ${r.category}`,
          `X-Size: ${r.value}`,
          '',
          `Ticket ${r.text} was updated.`,
          '',
        ].join('\n'),
      ),
    ),
  extract: `awk -v OFS='\\t' 'BEGIN{${AWK_MONTHS}} /^From: /{k=$2} /^Date: /{t=$5"-"M[$4]"-"$3"T"$6"Z"} /^Subject: /{x=$2} /^X-Folder: /{c=$2} /^X-Size: /{print k,$2,t,c,x}'`,
};
