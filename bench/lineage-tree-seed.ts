// Writes the lineages the tree render measurement looks at into $DATABASE_URL (already
// migrated): one lineage of 15 generations × 3 attempts (--generations for more) with a failed
// sibling at generation 6 (and every 15 generations before the newest such one in a longer
// lineage), and enough small lineages that the list has 100+ rows to page through. Prints the
// big lineage as JSON. Used by e2e/lineages.spec.ts; by hand for screenshots:
//   DATABASE_URL=file:/tmp/dev.db npx tsx bench/lineage-tree-seed.ts [--lineages 120] [--generations 60]
import { parseArgs } from 'node:util';
import { createDb } from '../lib/db/index.ts';
import { seedLineage } from '../test/fixtures/lineage-rows.ts';

const { values } = parseArgs({ options: { lineages: { type: 'string', default: '120' }, generations: { type: 'string', default: '15' } } });
const generations = Number(values.generations);
// Counted back from the newest generation n: released up to n−12 (the frontier), approved to
// n−9, n being validated, the rest awaiting review. Every one stands on the one before, as after
// a real evolution: a rejected one on the main line would have superseded all after it.
const frontier = Math.max(0, generations - 12);
const failedSiblingsAt: number[] = [];
for (let n = generations - 9; n >= 1; n -= 15) failedSiblingsAt.push(n);
const db = createDb();
try {
  const stamp = Date.now().toString(36);
  const big = await seedLineage(db, {
    name: `tree-bench-${stamp} · round-robin · low`,
    generations,
    attempts: 3,
    failedSiblingsAt,
    stateOf: (n) => (n <= frontier ? 'released' : n <= generations - 9 ? 'approved' : n === generations ? 'validating' : 'awaiting-review'),
  });
  await db.lineage.update({ where: { id: big.lineageId }, data: { frontier } });
  for (let i = 0; i < Number(values.lineages); i += 1) {
    await seedLineage(db, {
      name: `list-bench-${stamp}-${String(i).padStart(3, '0')}`,
      generations: 1 + (i % 6),
      attempts: 1 + (i % 2),
      seedVersionId: big.seedVersionId,
      status: i % 10 === 0 ? 'stalled' : 'idle',
    });
  }
  console.log(JSON.stringify(big));
} finally {
  await db.$disconnect();
}
