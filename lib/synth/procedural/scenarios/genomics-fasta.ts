// Sequencing reads (FASTA, sequences wrapped over several lines). Rule: records that failed
// quality control are excluded.
import { hashSeed } from '../rng.ts';
import { isoTime } from '../records.ts';
import { defineScenario, distinctKeys, flaggedRows, lines, pad } from '../scenario.ts';

export const genomicsFasta = defineScenario({
  name: 'genomics-fasta',
  title: 'Sequencing reads (FASTA)',
  fileName: 'reads.fasta',
  format:
    'FASTA: a header line `>CONTIG organism=NAME reads=N sampled=ISO_TIME qc=pass|fail` followed by the sequence, which may be wrapped over several lines.',
  nouns: {
    record: 'sequence record',
    records: 'sequence records',
    key: 'contig id',
    value: 'read count',
    time: 'sampling time',
    category: 'organism',
    text: 'sequence (its lines joined)',
  },
  columns: { key: 'contig', value: 'reads', time: 'sampled', category: 'organism', text: 'sequence' },
  value: { decimals: 0, min: 1, max: 5_000 },
  categories: ['e_coli', 's_aureus', 'b_subtilis', 'p_putida', 'm_tuberculosis'],
  texts: ['ACGTTGCAAGGCTTAC', 'GGATCCTTAGCAATGC', 'TTGACAGCTAGCTCAG', 'CCGGAATTCGATATCG', 'ATGAAACGCATTAGCA', 'GCTAGCTTGACCGTAA'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `contig_${pad(r.int(1, 999), 3)}`),
  rule: {
    name: 'failed-qc-excluded',
    describe: 'Records whose header says `qc=fail` failed quality control: they do not count as sequence records for any question of this step.',
    column: 'qc',
    columnMeaning: '`pass` or `fail`',
    ...flaggedRows('pass', 'fail'),
  },
  renderRows: (rows) =>
    lines(
      rows.map((r) => {
        const wrapped = hashSeed('wrap', r.key, r.time) % 2 === 0 ? `${r.text.slice(0, 10)}\n${r.text.slice(10)}` : r.text;
        return `>${r.key} organism=${r.category} reads=${r.value} sampled=${isoTime(r.time)} qc=${r.attr}\n${wrapped}`;
      }),
    ),
  parse: `awk -v OFS='\\t' 'function out() { if (k != "") print k, b[2], d[2], a[2], s, q[2] } /^>/ { out(); k = substr($1, 2); split($2, a, "="); split($3, b, "="); split($4, d, "="); split($5, q, "="); s = ""; next } { s = s $0 } END { out() }'`,
});
