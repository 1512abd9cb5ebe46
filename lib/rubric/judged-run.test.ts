// A rubric run with built-in items against a real database: the built-in checks are judged without
// an LLM (and without a sandbox), the LLM question stays unjudged, and the run says so in counts;
// the /rubric catalogue counts a plan item's verdicts from the plan reviews the generation pages show.
import { describe, expect } from 'vitest';
import { storeBundle } from '../env/store.ts';
import type { Sandbox } from '../sandbox/index.ts';
import { dbTest } from '../../test/fixtures/test.ts';
import { seedLineage } from '../../test/fixtures/lineage-rows.ts';
import { exampleBundles, withFiles } from '../../test/rubric/fixtures.ts';
import { OFFLINE_ITEMS } from './builtin/offline-items.ts';
import { BUILTIN_RUBRIC } from './builtin-items.ts';
import { itemVerdicts, listRubricCatalogue } from './catalogue.ts';
import { judgementText, rubricRunLabel } from './judgement.ts';
import { rubricJudgements } from './run-verdicts.ts';
import { activeRubric, syncBuiltinRubric } from './store.ts';
import { runRubricValidator } from './validate-rubric.ts';

// The items here have no shell check: a validator that reached for the sandbox would be a bug.
const noSandbox = {
  runChecks: () => Promise.reject(new Error('no sandbox in this test: built-in checks run in-process')),
} as unknown as Sandbox;

const question = { key: 'asks_llm', title: 'asks', description: 'd', check: null, question: 'Is it good?', appliesTo: 'environment' as const };

describe('a rubric run with built-in items', () => {
  dbTest('judges the built-in checks without an LLM and never calls the run passed while a question waits', async ({ db }) => {
    await syncBuiltinRubric(db, [...OFFLINE_ITEMS, question]);
    const items = await activeRubric(db, { appliesTo: 'environment' });
    const good = (await exampleBundles()).find((b) => b.name === 'seed-ledger-sql')!;
    const run = async (bundle: typeof good) => {
      const versionId = await storeBundle(db, bundle, { source: 'import' });
      return runRubricValidator({ db, sandbox: noSandbox, synthesiser: null, versionId, bundle, items });
    };

    const passing = await run(good);
    expect(passing.verdict).toBe('passed');
    expect(passing.rubricVerdicts.map((v) => `${v.method}:${v.verdict}`).sort()).toEqual([
      'builtin:passed',
      'builtin:passed',
      'builtin:passed',
      'llm:unjudged',
    ]);
    const judgement = (await rubricJudgements(db, [passing.id])).get(passing.id)!;
    expect(judgementText(judgement)).toBe('3 of 4 judged, 1 needs an LLM judge');
    expect(rubricRunLabel(passing.verdict, judgement)).toBe('partly judged');

    const instruction = good.files.find((f) => f.path === 'instruction.md')!.content.toString('utf8');
    const failing = await run(withFiles(good, { 'instruction.md': instruction.replaceAll('ledger entries', 'ledger entrys') }));
    expect(failing.verdict).toBe('failed');
    expect(failing.error).toMatch(/^spelling failed \(builtin\): 1 misspelt word of \d+ checked: 'entrys'$/);
    const spelling = failing.rubricVerdicts.find((v) => v.itemId === items.find((i) => i.key === 'spelling')!.id)!;
    expect(spelling).toMatchObject({ method: 'builtin', verdict: 'failed' });
    expect(spelling.detail).toContain("'entrys'");
    expect(judgementText((await rubricJudgements(db, [failing.id])).get(failing.id)!)).toBe('3 of 4 judged (1 failed), 1 needs an LLM judge');
  });

  dbTest('an item naming a built-in check this Envolve does not have errs, it does not pass', async ({ db }) => {
    await syncBuiltinRubric(db, [{ ...OFFLINE_ITEMS[0]!, builtinCheck: 'spelling@99' }]);
    const items = await activeRubric(db, { appliesTo: 'environment' });
    const bundle = (await exampleBundles())[0]!;
    const versionId = await storeBundle(db, bundle, { source: 'import' });
    const run = await runRubricValidator({ db, sandbox: noSandbox, synthesiser: null, versionId, bundle, items });
    expect(run.verdict).toBe('error');
    expect(run.rubricVerdicts[0]).toMatchObject({ method: 'builtin', verdict: 'error' });
    expect(run.rubricVerdicts[0]!.detail).toMatch(/no built-in check spelling@99 \(it has spelling@1, /);
  });
});

describe('the /rubric catalogue', () => {
  dbTest("counts a plan item's verdicts from the plan reviews, as the generation pages show them", async ({ db }) => {
    await syncBuiltinRubric(db);
    const items = await db.rubricItem.findMany();
    const id = (key: string) => items.find((i) => i.key === key)!.id;
    const lineage = await seedLineage(db, { name: 'plan counts', generations: 1, attempts: 1 });
    const review = (verdicts: Record<string, string>) =>
      JSON.stringify({ reasons: [], violations: [], items: Object.entries(verdicts).map(([key, verdict]) => ({ itemId: id(key), verdict, reason: '' })) });
    await db.planRound.createMany({
      data: [
        {
          generationId: lineage.generationIds[0]!,
          round: 1,
          createdAt: new Date('2026-01-01T10:00:00Z'),
          plan: '{}',
          approved: false,
          rubricVersion: 'r-test',
          review: review({ plan_effort_bound: 'failed', plan_rationale: 'unjudged' }),
        },
        {
          generationId: lineage.generationIds[0]!,
          round: 2,
          createdAt: new Date('2026-01-01T10:01:00Z'),
          plan: '{}',
          approved: true,
          rubricVersion: 'r-test',
          review: review({ plan_effort_bound: 'passed', plan_rationale: 'passed' }),
        },
      ],
    });
    const catalogue = await listRubricCatalogue(db);
    const row = (key: string) => catalogue.find((k) => k.key === key)!;
    expect(row('plan_effort_bound')).toMatchObject({ verdictCount: 2, judgedCount: 2 });
    expect(row('plan_rationale')).toMatchObject({ verdictCount: 2, judgedCount: 1 });
    expect(row('plan_axis_consistent')).toMatchObject({ verdictCount: 0, judgedCount: 0 });
    expect(catalogue).toHaveLength(new Set(BUILTIN_RUBRIC.map((i) => i.key)).size);
    // The item page lists the same verdicts, newest round first, on the version the plan was made from.
    const rows = await itemVerdicts(db, id('plan_rationale'));
    expect(rows.map((r) => [r.method, r.verdict, r.validatorRunId])).toEqual([
      ['plan review, round 2', 'passed', null],
      ['plan review, round 1', 'unjudged', null],
    ]);
    expect(rows[0]).toMatchObject({ rubricVersion: 'r-test', generation: { id: lineage.generationIds[0], number: 1, lineageName: 'plan counts' } });
  });
});
