// Seeds a generation awaiting review whose residual changes 200 files, straight through
// Prisma, for measuring the review page's first render (e2e/review.spec.ts). Prints
// {"generationId": "..."} on stdout. DATABASE_URL names the database.
import { seedEnvironment } from '../test/fixtures/dashboard-rows.ts';
import { createDb } from '../lib/db/index.ts';
import { serializeResidual, type FileChange } from '../lib/env/index.ts';

const FILES = 200;
const LINES = 60;

const fileText = (i: number, variant: string) =>
  Array.from({ length: LINES }, (_, line) => `file ${i} line ${line + 1}${line % 20 === 7 ? ` ${variant}` : ''}`).join('\n') + '\n';
const path = (i: number) => `data/records-${String(i).padStart(3, '0')}.txt`;

const db = createDb();
const parentFiles: Record<string, string> = {
  'task.toml': 'version = "2.0"\n[verifier]\ntimeout_sec = 60\n',
  'instruction.md': '# Large residual\n\nA generation whose residual touches 200 data files.\n',
  'environment/Dockerfile': 'FROM envolve-base:bookworm\n',
  'tests/test.sh': '#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n',
};
for (let i = 0; i < FILES; i++) parentFiles[path(i)] = fileText(i, 'before');
const parentVersionId = await seedEnvironment(db, { name: `large-residual-${Date.now()}`, files: parentFiles });

const lineage = await db.lineage.create({
  data: {
    name: 'large residual (bench)',
    seedVersionId: parentVersionId,
    axisPolicy: '{"kind":"fixed","axis":"length"}',
    effort: 'high',
    synthesiser: 'procedural',
    seed: 1,
  },
});
const generation = await db.generation.create({
  data: { lineageId: lineage.id, number: 1, parentVersionId, axis: 'length', effort: 'high', state: 'awaiting-review', revision: 1 },
});
const changes: FileChange[] = Array.from({ length: FILES }, (_, i) => ({
  op: 'modify',
  path: path(i),
  content: Buffer.from(fileText(i, 'after')),
  executable: false,
}));
await db.attempt.create({
  data: { generationId: generation.id, number: 1, state: 'valid', residual: JSON.stringify(serializeResidual({ changes })) },
});
console.log(JSON.stringify({ generationId: generation.id }));
await db.$disconnect();
