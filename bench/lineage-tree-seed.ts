// Writes the lineages the tree render measurement looks at into $DATABASE_URL (already
// migrated): one lineage of 15 generations × 3 attempts with a failed sibling at generation 6,
// and enough small lineages that the list has 100+ rows to page through. Prints the big
// lineage as JSON. Used by e2e/lineages.spec.ts; by hand for screenshots:
//   DATABASE_URL=file:/tmp/dev.db npx tsx bench/lineage-tree-seed.ts [--lineages 120]
import { parseArgs } from 'node:util';
import { createDb } from '../lib/db/index.ts';
import { seedLineage } from '../test/fixtures/lineage-rows.ts';

const { values } = parseArgs({ options: { lineages: { type: 'string', default: '120' } } });
const db = createDb();
try {
  const stamp = Date.now().toString(36);
  const big = await seedLineage(db, {
    name: `tree-bench-${stamp} · round-robin · low`,
    generations: 15,
    attempts: 3,
    failedSiblingsAt: [6],
    stateOf: (n) => (n <= 3 ? 'released' : n <= 6 ? 'approved' : n === 9 ? 'rejected' : n === 15 ? 'validating' : 'awaiting-review'),
  });
  await db.lineage.update({ where: { id: big.lineageId }, data: { frontier: 3 } });
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
