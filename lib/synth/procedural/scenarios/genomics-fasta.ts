import { isoTime } from '../records.ts';
import { distinctKeys, lines, pad, type Scenario } from '../scenario.ts';

export const genomicsFasta: Scenario = {
  name: 'genomics-fasta',
  title: 'Sequencing reads (FASTA)',
  fileName: 'reads.fasta',
  format: 'FASTA: a header line `>CONTIG organism=NAME reads=N sampled=ISO_TIME` followed by one sequence line.',
  nouns: {
    record: 'sequence record',
    records: 'sequence records',
    key: 'contig id',
    value: 'read count',
    time: 'sampling time',
    category: 'organism',
    text: 'sequence',
  },
  columns: { key: 'contig', value: 'reads', time: 'sampled', category: 'organism', text: 'sequence' },
  value: { decimals: 0, min: 1, max: 5_000 },
  categories: ['e_coli', 's_aureus', 'b_subtilis', 'p_putida', 'm_tuberculosis'],
  texts: ['ACGTTGCAAGGCTTAC', 'GGATCCTTAGCAATGC', 'TTGACAGCTAGCTCAG', 'CCGGAATTCGATATCG', 'ATGAAACGCATTAGCA', 'GCTAGCTTGACCGTAA'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `contig_${pad(r.int(1, 999), 3)}`),
  render: (records) => lines(records.map((r) => `>${r.key} organism=${r.category} reads=${r.value} sampled=${isoTime(r.time)}\n${r.text}`)),
  extract: `awk -v OFS='\\t' '/^>/{k=substr($1,2); split($2,a,"="); split($3,b,"="); split($4,d,"="); next} {print k,b[2],d[2],a[2],$0}'`,
};
