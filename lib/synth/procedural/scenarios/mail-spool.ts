// Mail spool (mbox). Rule: messages flagged deleted (`X-Status: D`) are gone from the mailbox.
import { isoTime } from '../records.ts';
import { AWK_MONTHS, defineScenario, distinctKeys, keepWhere, lines, weaveGhosts } from '../scenario.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function rfc2822(seconds: number): string {
  const d = new Date(seconds * 1000);
  const day = String(d.getUTCDate()).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]}, ${day} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${isoTime(seconds).slice(11, 19)} +0000`;
}

export const mailSpool = defineScenario({
  name: 'mail-spool',
  title: 'Mail spool (mbox)',
  fileName: 'spool.mbox',
  format:
    'mbox: each message starts with a `From ` line and has `From:`, `Date:` (RFC 2822, UTC), `Subject:`, `X-Folder:`, an optional `X-Status:` and `X-Size:` headers, a blank line and a one-line body.',
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
  rule: {
    name: 'deleted-messages-excluded',
    describe: 'A message with the header `X-Status: D` was deleted by its reader: it does not count as a message for any question of this step.',
    column: 'x_status',
    columnMeaning: '`D` for a deleted message, `-` otherwise',
    weave: (records, value) =>
      weaveGhosts(
        records,
        value,
        () => '-',
        (ghost) => [{ ...ghost, attr: 'D' }],
      ),
    filter: keepWhere('$6 != "D"'),
  },
  renderRows: (rows) =>
    lines(
      rows.map((r) =>
        [
          `From ${r.key} ${new Date(r.time * 1000).toUTCString()}`,
          `From: ${r.key}`,
          `Date: ${rfc2822(r.time)}`,
          `Subject: ${r.text}`,
          `X-Folder: ${r.category}`,
          ...(r.attr === 'D' ? ['X-Status: D'] : []),
          `X-Size: ${r.value}`,
          '',
          `Ticket ${r.text} was updated.`,
          '',
        ].join('\n'),
      ),
    ),
  parse: `awk -v OFS='\\t' 'BEGIN{${AWK_MONTHS}} /^From /{st="-"} /^From: /{k=$2} /^Date: /{t=$5"-"M[$4]"-"$3"T"$6"Z"} /^Subject: /{x=$2} /^X-Folder: /{c=$2} /^X-Status: /{st=$2} /^X-Size: /{print k,$2,t,c,x,st}'`,
});
