// The rubric validator and the plan-item review against real containers: verdicts per
// item and method, unjudged (never passed) without an LLM, a fake judge's answers, a
// check that loops forever, and plan items rejecting a length step that depends on nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import type { TaskBundle } from '../../lib/bundle/bundle.ts';
import { storeBundle } from '../../lib/env/store.ts';
import {
  activeRubric,
  BUILTIN_RUBRIC,
  reviewPlanAgainstRubric,
  rubricVersionLabel,
  runRubricValidator,
  saveRubricItem,
  syncBuiltinRubric,
  toItemView,
} from '../../lib/rubric/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import type { JudgeInput, JudgeVerdict, Synthesiser } from '../../lib/synth/types.ts';
import { BUILTIN_ENVIRONMENT_CHECKS, BUILTIN_PLAN_CHECKS, limitMs, rubricChecksMs } from '../budgets.ts';
import { exampleBundles, lengthPlan, PARENT_SEQUENCE, scenarioPlan, withFiles } from './fixtures.ts';

let testDb: TestDb;
let example: TaskBundle;
// The limits of one rubric run over an environment (the built-in checks at their default budget), and of one plan review.
const RUBRIC_RUN_MS = rubricChecksMs(BUILTIN_ENVIRONMENT_CHECKS);
const PLAN_REVIEW_MS = rubricChecksMs(BUILTIN_PLAN_CHECKS);
const sandbox = new DockerSandbox();

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  await syncBuiltinRubric(testDb.db);
  example = (await exampleBundles())[0]!;
});
afterAll(() => testDb.cleanup());

// Only judge() is called by the validator; the other roles are not part of this test.
function fakeJudge(answer: (input: JudgeInput) => JudgeVerdict): Synthesiser {
  const unused = () => Promise.reject(new Error('not used by the rubric validator'));
  return {
    name: 'anthropic',
    extractSequence: unused,
    propose: unused,
    reviewPlan: unused,
    modify: unused,
    judge: async (input) => answer(input),
  };
}

async function validate(bundle: TaskBundle, synthesiser: Synthesiser | null, jobId?: string) {
  const versionId = await storeBundle(testDb.db, bundle, { source: 'import' });
  const items = await activeRubric(testDb.db, { appliesTo: 'environment' });
  const run = await runRubricValidator({ db: testDb.db, sandbox, synthesiser, versionId, bundle, items, jobId });
  const verdicts = await testDb.db.rubricVerdict.findMany({ where: { validatorRunId: run.id }, include: { item: true } });
  const byKey = (method: string) => Object.fromEntries(verdicts.filter((v) => v.method === method).map((v) => [v.item.key, v]));
  return { run, items, versionId, executable: byKey('executable'), llm: byKey('llm') };
}

describe('runRubricValidator', () => {
  it(
    'passes a good example with no LLM: executable items pass, LLM items are unjudged, never passed',
    async () => {
      const { run, items, versionId, executable, llm } = await validate(example, null);
      expect(run).toMatchObject({ kind: 'rubric', verdict: 'passed', status: 'completed', versionId, rubricVersion: rubricVersionLabel(items) });
      expect(run.imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(Object.values(executable).map((v) => v.verdict)).toEqual(Array(Object.keys(executable).length).fill('passed'));
      expect(Object.keys(executable).length).toBe(items.filter((i) => i.check).length);
      const questions = items.filter((i) => i.question).length;
      expect(Object.keys(llm).length).toBe(questions);
      expect(new Set(Object.values(llm).map((v) => v.verdict))).toEqual(new Set(['unjudged']));
      expect(llm.typos!.detail).toMatch(/no LLM/);
      // The built-in checks are judged without an LLM: they pass on the example.
      const builtin = await testDb.db.rubricVerdict.findMany({ where: { validatorRunId: run.id, method: 'builtin' } });
      expect(builtin.map((v) => v.verdict)).toEqual(Array(items.filter((i) => i.builtinCheck).length).fill('passed'));
      // The compact log: one line per verdict.
      expect(run.agentLog.split('\n')).toHaveLength(Object.keys(executable).length + builtin.length + questions);
      expect(run.agentLog).toMatch(/^passed +executable +reward_file_written@1 /m);
    },
    limitMs(RUBRIC_RUN_MS),
  );

  it(
    'records a fake judge’s passed and failed, and fails the run on a judged failure',
    async () => {
      const judge = fakeJudge(({ item }) =>
        item.key === 'typos' ? { verdict: 'failed', explanation: 'instruction says "acess.log"' } : { verdict: 'passed', explanation: 'fine' },
      );
      const { run, llm } = await validate(example, judge);
      expect(llm.typos).toMatchObject({ verdict: 'failed', detail: 'instruction says "acess.log"' });
      expect(llm.behavior_in_tests!.verdict).toBe('passed');
      expect(run.verdict).toBe('failed');
      expect(run.error).toMatch(/typos failed \(llm\)/);
    },
    limitMs(RUBRIC_RUN_MS),
  );

  it(
    'an LLM that answers unjudged leaves the item unjudged and the run passed',
    async () => {
      const { run, llm } = await validate(
        example,
        fakeJudge(() => ({ verdict: 'unjudged', explanation: 'no key' })),
      );
      expect(new Set(Object.values(llm).map((v) => v.verdict))).toEqual(new Set(['unjudged']));
      expect(run.verdict).toBe('passed');
    },
    limitMs(RUBRIC_RUN_MS),
  );

  it(
    'fails on a bad bundle and says which items failed',
    async () => {
      const bad = withFiles(example, {
        'environment/Dockerfile': 'FROM envolve/base:bookworm\nRUN apt-get install -y jq\nCOPY solution/solve.sh /app/\n',
        'tests/test.sh': '#!/bin/bash\ntest -s /app/summary.csv\n',
      });
      const { run, executable } = await validate(bad, null);
      expect(run.verdict).toBe('failed');
      for (const key of ['dockerfile_offline', 'image_copies_no_solution_or_tests', 'reward_file_written', 'output_paths_in_instruction']) {
        expect(executable[key]!.verdict, key).toBe('failed');
      }
      expect(executable.pinned_dependencies!.verdict).toBe('passed');
      expect(run.error).toMatch(/dockerfile_offline failed \(executable\)/);
    },
    limitMs(RUBRIC_RUN_MS),
  );

  // A lineage-scoped item with just a check, as a lead makes one from a missed issue.
  async function lineageItemsWithCheck(lineageId: string, key: string, check: string) {
    await saveRubricItem(testDb.db, {
      key,
      title: key,
      description: 'a missed-issue check',
      check,
      question: null,
      appliesTo: 'environment',
      scope: 'lineage',
      lineageId,
      source: 'missed-issue',
    });
    const items = await activeRubric(testDb.db, { appliesTo: 'environment', lineageId });
    expect(items[0]!.key).toBe(key);
    const versionId = await storeBundle(testDb.db, example, { source: 'import' });
    return { items, versionId };
  }

  const LOOPING_BUDGET_SEC = 2;
  const SLOW_ONCE_BUDGET_SEC = 3;

  it(
    'a check that loops forever runs out of time twice (its budget, then its one larger retry) as an error, and the next checks still run',
    async () => {
      const { items, versionId } = await lineageItemsWithCheck('lineage-with-a-slow-check', 'aaa_loops_forever', 'while :; do :; done');
      const run = await runRubricValidator({
        db: testDb.db,
        sandbox,
        synthesiser: null,
        versionId,
        bundle: example,
        items,
        checkTimeoutSec: LOOPING_BUDGET_SEC,
      });
      expect(run).toMatchObject({ verdict: 'error', status: 'timed-out', timedOut: true });
      const verdicts = run.rubricVerdicts.filter((v) => v.method === 'executable');
      const looping = verdicts.find((v) => v.itemId === items[0]!.id)!;
      expect(looping.verdict).toBe('error');
      expect(looping.detail).toMatch(/ran out of time twice \(2 s, then a larger budget\)/);
      expect(verdicts.filter((v) => v.verdict === 'passed')).toHaveLength(verdicts.length - 1);
    },
    limitMs(rubricChecksMs(BUILTIN_ENVIRONMENT_CHECKS + 1, LOOPING_BUDGET_SEC)),
  );

  it(
    'a check that overran its budget once and finished on its retry counts, and says it was retried',
    async () => {
      // The first run leaves a mark in the container's home (it survives the restart) and hangs.
      const slowOnce = 'if [ -e "$HOME/.ran" ]; then echo second run; exit 0; fi; touch "$HOME/.ran"; sleep 600';
      const { items, versionId } = await lineageItemsWithCheck('lineage-with-a-check-slow-once', 'aaa_slow_once', slowOnce);
      const run = await runRubricValidator({
        db: testDb.db,
        sandbox,
        synthesiser: null,
        versionId,
        bundle: example,
        items,
        checkTimeoutSec: SLOW_ONCE_BUDGET_SEC,
      });
      const slow = run.rubricVerdicts.find((v) => v.itemId === items[0]!.id)!;
      expect(slow, slow.detail).toMatchObject({ verdict: 'passed' });
      expect(slow.detail).toMatch(/second run\n\[the first run overran its 3 s budget; this is its one retry\]/);
      expect(run).toMatchObject({ verdict: 'passed', timedOut: false });
    },
    limitMs(rubricChecksMs(BUILTIN_ENVIRONMENT_CHECKS + 1, SLOW_ONCE_BUDGET_SEC)),
  );

  it(
    'records a retried job once',
    async () => {
      const first = await validate(example, null, 'rubric-job-1');
      const second = await validate(example, null, 'rubric-job-1');
      expect(second.run.id).toBe(first.run.id);
    },
    limitMs(RUBRIC_RUN_MS, RUBRIC_RUN_MS),
  );
});

describe('reviewPlanAgainstRubric', () => {
  const planItems = () => BUILTIN_RUBRIC.filter((i) => i.appliesTo === 'plan');
  async function review(plan: ReturnType<typeof lengthPlan>) {
    const rows = await activeRubric(testDb.db, { appliesTo: 'plan' });
    expect(rows.map((r) => r.key).sort()).toEqual(
      planItems()
        .map((i) => i.key)
        .sort(),
    );
    const items = await reviewPlanAgainstRubric({ sandbox, plan, parentSequence: PARENT_SEQUENCE, items: rows.map(toItemView) });
    const keyOf = new Map(rows.map((r) => [r.id, r.key]));
    return Object.fromEntries(items.map((i) => [keyOf.get(i.itemId)!, i]));
  }

  it(
    'passes a length plan whose inserted step consumes an existing output',
    async () => {
      const items = await review(lengthPlan(['s2']));
      for (const [key, item] of Object.entries(items)) expect({ key, ...item }).toMatchObject({ verdict: 'passed' });
    },
    limitMs(PLAN_REVIEW_MS),
  );

  it(
    'rejects a length plan whose inserted step depends on nothing',
    async () => {
      const items = await review(lengthPlan([]));
      expect(items.plan_length_inserts_depend).toMatchObject({ verdict: 'failed' });
      expect(items.plan_length_inserts_depend!.reason).toMatch(/inserted step s3 depends on no earlier step/);
      expect(items.plan_effort_bound!.verdict).toBe('passed');
    },
    limitMs(PLAN_REVIEW_MS),
  );

  it(
    'rejects a dependency on a step that comes later, too much change for low effort, and a scenario edit that changes a skill',
    async () => {
      const later = await review(lengthPlan(['s9']));
      expect(later.plan_length_inserts_depend!.reason).toMatch(/depends on s9, which do not come before it/);
      const wide = lengthPlan(['s2']);
      wide.edit.inserted = ['s3', 's4'];
      wide.child.steps.push({ id: 's4', scenario: 'web-server logs', skill: 'jq', dependsOn: ['s3'] });
      expect((await review(wide)).plan_effort_bound!.reason).toMatch(/low effort must change exactly one step/);
      expect((await review(scenarioPlan(false))).plan_axis_consistent!.verdict).toBe('passed');
      expect((await review(scenarioPlan(true))).plan_axis_consistent!.reason).toMatch(/scenario edit changed the other field of step s2/);
    },
    limitMs(4 * PLAN_REVIEW_MS),
  );

  it('answers unjudged for an LLM-only plan item', async () => {
    const { item } = await saveRubricItem(testDb.db, {
      key: 'plan_llm_only',
      title: 'asks the judge only',
      description: 'no check',
      check: null,
      question: 'Is the plan sound?',
      appliesTo: 'plan',
    });
    const items = await reviewPlanAgainstRubric({ sandbox, plan: lengthPlan(['s2']), parentSequence: PARENT_SEQUENCE, items: [toItemView(item)] });
    expect(items).toEqual([{ itemId: item.id, verdict: 'unjudged', reason: 'judged by the LLM reviewer only' }]);
  });
});
