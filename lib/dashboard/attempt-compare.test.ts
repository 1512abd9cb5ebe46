import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import type { StoredFileChange } from '../env/residual.ts';
import { decide, setFileViewed } from '../review/index.ts';
import { attemptFileDiff, changedSinceReview, changesSinceLastReview, compareAttempts, compareResiduals } from './attempt-compare.ts';
import { getGenerationReview } from './generation.ts';
import type { FileFacts } from './generation-residual.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const add = (path: string, content: string): StoredFileChange => ({ op: 'add', path, encoding: 'utf8', content, executable: false });
const modify = (path: string, content: string, executable = false): StoredFileChange => ({ op: 'modify', path, encoding: 'utf8', content, executable });
const facts = (content: string, executable = false): FileFacts => ({ size: Buffer.byteLength(content), sha256: sha256(content), executable, binary: false });

describe('compareResiduals', () => {
  const parent = new Map([
    ['instruction.md', facts('# task\n')],
    ['tests/test.sh', facts('echo 0\n', true)],
  ]);

  it('lists the files whose content differs between the candidates, in reading order, the parent standing in for a path a residual leaves alone', () => {
    const older = [modify('tests/test.sh', 'echo 1\n', true), add('data/a.csv', 'x,1\n'), add('data/same.csv', 'same\n')];
    const newer = [
      modify('instruction.md', '# task, revised\n'),
      modify('tests/test.sh', 'echo 2\n', true),
      add('data/same.csv', 'same\n'),
      add('data/b.csv', 'y\n'),
    ];
    const files = compareResiduals(older, newer, parent);
    expect(files.map((f) => [f.path, f.op])).toEqual([
      ['instruction.md', 'modify'],
      ['tests/test.sh', 'modify'],
      ['data/a.csv', 'delete'],
      ['data/b.csv', 'add'],
    ]);
    expect(files[0]).toMatchObject({ oldSha256: sha256('# task\n'), newSha256: sha256('# task, revised\n'), data: false });
    expect(files[2]).toMatchObject({ newSize: null, data: true });
  });

  it('finds a file a revision put back as the parent had it, and a mode change alone', () => {
    const older = [modify('instruction.md', '# changed\n'), modify('tests/test.sh', 'echo 0\n', true)];
    const newer = [modify('tests/test.sh', 'echo 0\n', false)];
    const files = compareResiduals(older, newer, parent);
    expect(files.map((f) => [f.path, f.op, f.executableChanged])).toEqual([
      ['instruction.md', 'modify', false],
      ['tests/test.sh', 'modify', true],
    ]);
    expect(files[0]?.newSha256).toBe(sha256('# task\n'));
  });

  it('finds nothing between identical candidates', () => {
    expect(compareResiduals([add('a.txt', 'a')], [add('a.txt', 'a')], parent)).toEqual([]);
  });
});

describe('changedSinceReview', () => {
  const shown = (files: Record<string, string>) => Object.entries(files).map(([path, hash]) => ({ path, contentSha256: hash }) as never);
  const attempts = [
    {
      number: 1,
      hashes: new Map([
        ['a', 'a1'],
        ['b', 'b1'],
      ]),
    },
    {
      number: 2,
      hashes: new Map([
        ['a', 'a2'],
        ['b', 'b1'],
      ]),
    },
    {
      number: 3,
      hashes: new Map([
        ['a', 'a3'],
        ['b', 'b3'],
        ['c', 'c3'],
      ]),
    },
  ];

  it('flags a file marked viewed on other content, naming the newest attempt that holds what was seen', () => {
    const changed = changedSinceReview({
      shown: shown({ a: 'a3', b: 'b3', c: 'c3' }),
      shownAttempt: 3,
      marks: [
        { path: 'a', contentSha256: 'a3' },
        { path: 'b', contentSha256: 'b1' },
        { path: 'c', contentSha256: 'gone' },
      ],
      attempts,
      decidedAttempt: null,
    });
    expect(changed).toEqual([
      { path: 'b', since: 'viewed', seenAttempt: 2 },
      { path: 'c', since: 'viewed', seenAttempt: null },
    ]);
  });

  it('flags an unmarked file that differs from the attempt decided on, but not on that attempt itself or an earlier one', () => {
    const input = { shown: shown({ a: 'a2', b: 'b1' }), marks: [{ path: 'a', contentSha256: '' }], attempts };
    expect(changedSinceReview({ ...input, shownAttempt: 2, decidedAttempt: 1 })).toEqual([{ path: 'a', since: 'decided', seenAttempt: 1 }]);
    expect(changedSinceReview({ ...input, shownAttempt: 2, decidedAttempt: 2 })).toEqual([]);
    expect(changedSinceReview({ ...input, shownAttempt: 1, decidedAttempt: 2 })).toEqual([]);
  });

  it('flags nothing for a viewer who never marked or decided', () => {
    expect(changedSinceReview({ shown: shown({ a: 'a3' }), shownAttempt: 3, marks: [], attempts, decidedAttempt: null })).toEqual([]);
  });
});

describe('attempts of a stored generation', () => {
  let testDb: TestDb;
  let db: Db;
  let parentVersionId: string;
  const reviewer = { id: 'attempt-reviewer', email: 'attempts@example.test', role: 'reviewer' };
  const residual = (changes: StoredFileChange[]) => JSON.stringify(changes);

  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
    parentVersionId = await seedEnvironment(db, { name: 'attempt-compare-parent' });
    await db.user.create({ data: { id: reviewer.id, email: reviewer.email, name: reviewer.email, role: reviewer.role } });
  });
  afterAll(() => testDb.cleanup());

  async function generation(attempts: (StoredFileChange[] | null)[]) {
    const lineage = await db.lineage.create({
      data: {
        name: `compare ${Math.random()}`,
        seedVersionId: parentVersionId,
        axisPolicy: '{"kind":"round-robin"}',
        effort: 'low',
        synthesiser: 'procedural',
        seed: 1,
      },
    });
    const g = await db.generation.create({
      data: { lineageId: lineage.id, number: 1, parentVersionId, axis: 'length', effort: 'low', state: 'awaiting-review', revision: 1 },
    });
    for (const [i, changes] of attempts.entries()) {
      await db.attempt.create({
        data: { generationId: g.id, number: i + 1, state: 'valid', residual: changes && residual(changes), createdAt: new Date(Date.UTC(2001, 0, 1, 0, i)) },
      });
    }
    return g;
  }

  it('compares two attempts file by file and diffs one file, reading the parent where a residual left the file alone', async () => {
    const g = await generation([
      [modify('tests/test.sh', '#!/bin/bash\necho first\n', true), add('data/a.csv', 'x,1\n')],
      [modify('instruction.md', '# revised\n'), modify('tests/test.sh', '#!/bin/bash\necho second\n', true), add('data/a.csv', 'x,1\n')],
      null,
    ]);
    const comparison = await compareAttempts(db, g.id, 1, 2);
    expect(comparison?.files.map((f) => [f.path, f.op])).toEqual([
      ['instruction.md', 'modify'],
      ['tests/test.sh', 'modify'],
    ]);
    const test = await attemptFileDiff(db, g.id, 1, 2, 'tests/test.sh');
    expect(test?.kind === 'text' && test.lines.map((l) => `${l.kind} ${l.text}`)).toEqual(['context #!/bin/bash', 'delete echo first', 'add echo second']);
    // Attempt 1 left instruction.md as the parent had it.
    const instruction = await attemptFileDiff(db, g.id, 1, 2, 'instruction.md');
    expect(instruction?.kind === 'text' && instruction.lines.filter((l) => l.kind === 'delete').map((l) => l.text)).toEqual([
      '# attempt-compare-parent',
      '',
      'Create /app/hello.txt containing "hello".',
    ]);
    // Reversed, the same change the other way round.
    expect((await compareAttempts(db, g.id, 2, 1))?.files.find((f) => f.path === 'tests/test.sh')?.newSha256).toBe(sha256('#!/bin/bash\necho first\n'));
    // Neither touched it; an attempt without a residual, or one that does not exist, cannot be compared.
    expect(await attemptFileDiff(db, g.id, 1, 2, 'solution/solve.sh')).toBeNull();
    expect(await compareAttempts(db, g.id, 1, 3)).toBeNull();
    expect(await compareAttempts(db, g.id, 1, 9)).toBeNull();
    expect(await compareAttempts(db, 'nosuchgeneration', 1, 2)).toBeNull();
  });

  it('shows a reviewer the files a revision changed since they marked them viewed, and since they decided', async () => {
    const g = await generation([[modify('instruction.md', '# one\n'), modify('tests/test.sh', 'echo 1\n', true), add('data/a.csv', 'x\n')]]);
    const first = await getGenerationReview(db, g.id, { viewerId: reviewer.id });
    expect(first?.changedSinceReview).toEqual([]);
    for (const file of first!.residual.filter((f) => f.path !== 'data/a.csv')) {
      await setFileViewed(db, { user: reviewer, generationId: g.id, path: file.path, contentSha256: file.contentSha256, viewed: true });
    }
    // The reviewer requests changes on attempt 1; the revision (attempt 2) changes the test and the data, not the instruction.
    await decide(db, { generationId: g.id, user: reviewer, decision: 'request-changes', comment: 'make the test stricter', revision: 1 });
    await db.attempt.create({
      data: {
        generationId: g.id,
        number: 2,
        state: 'valid',
        residual: residual([modify('instruction.md', '# one\n'), modify('tests/test.sh', 'echo 2\n', true), add('data/a.csv', 'y\n')]),
        createdAt: new Date(Date.UTC(2099, 0, 1)),
      },
    });
    const revised = await getGenerationReview(db, g.id, { viewerId: reviewer.id });
    expect(revised?.focusedAttempt).toBe(2);
    expect(revised?.viewedPaths).toEqual(['instruction.md']);
    expect(revised?.changedSinceReview).toEqual([
      { path: 'tests/test.sh', since: 'viewed', seenAttempt: 1 },
      // Never marked, but seen as attempt 1 when the reviewer decided.
      { path: 'data/a.csv', since: 'decided', seenAttempt: 1 },
    ]);
    expect(revised?.attempts.map((a) => a.hasResidual)).toEqual([true, true]);
    // Marked viewed on its new content, the test is no longer changed since.
    const test = revised!.residual.find((f) => f.path === 'tests/test.sh')!;
    await setFileViewed(db, { user: reviewer, generationId: g.id, path: test.path, contentSha256: test.contentSha256, viewed: true });
    expect(await changesSinceLastReview(db, reviewer.id, g, { number: 2, files: revised!.residual })).toEqual([
      { path: 'data/a.csv', since: 'decided', seenAttempt: 1 },
    ]);
    // Another reviewer saw nothing of it.
    expect(await changesSinceLastReview(db, 'someone-else', g, { number: 2, files: revised!.residual })).toEqual([]);
  });
});
