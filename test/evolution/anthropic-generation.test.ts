// A full generation with Claude as proposer, plan reviewer, modifier and rubric judge, against
// the local fake of the Messages API. The fake's answers are what a competent model would say:
// the procedural synthesiser's plan and residual for the same parent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSolutionCheckReport } from '../../lib/validate/index.ts';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import type { FileChange } from '../../lib/env/residual.ts';
import { getVersion, loadBundle } from '../../lib/env/store.ts';
import { evolveGeneration, findOrCreateLineage } from '../../lib/evolution/index.ts';
import { activeRubric, syncBuiltinRubric } from '../../lib/rubric/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { parseSequence } from '../../lib/sequence/index.ts';
import type { Sequence } from '../../lib/sequence/types.ts';
import { AnthropicSynthesiser } from '../../lib/synth/anthropic/index.ts';
import { ProceduralSynthesiser } from '../../lib/synth/procedural/index.ts';
import { answerByTool, startFakeAnthropic, type FakeAnthropic } from '../fakes/anthropic-server.ts';
import { context, storeProceduralSeed } from './helpers.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;
let fake: FakeAnthropic;

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(async () => {
  await fake?.close();
  await testDb.cleanup();
});

const withSummaries = (sequence: Sequence) => ({
  steps: sequence.steps.map((s) => ({ ...s, summary: s.summary ?? `${s.skill} over ${s.scenario}` })),
});

const asEdit = (change: FileChange) =>
  change.op === 'delete'
    ? { op: 'delete', path: change.path }
    : { op: change.op, path: change.path, content: change.content.toString('utf8'), executable: change.executable };

describe('the Anthropic synthesiser in the loops', () => {
  it('runs a whole generation against the fake Messages API', async () => {
    const { db } = testDb;
    const seedVersionId = await storeProceduralSeed(db, 51, 'claude-seed');
    const seed = await getVersion(db, seedVersionId);
    const parent = { versionId: seedVersionId, bundle: await loadBundle(db, seedVersionId), sequence: parseSequence(seed!.metadata.sequence) };
    const procedural = new ProceduralSynthesiser();
    const plan = await procedural.propose({ parent, axis: 'length', effort: 'low', seed: 7, rubric: [], feedback: [], minGain: 0.05 });
    const modified = await procedural.modify({ parent, plan, seed: 7, attempt: 1, feedback: [] });

    await syncBuiltinRubric(db);
    const planItems = await activeRubric(db, { appliesTo: 'plan' });
    fake = await startFakeAnthropic({
      respond: answerByTool({
        propose_plan: () => ({ edit: plan.edit, child: withSummaries(plan.child), rationale: plan.rationale }),
        review_plan: () => ({
          approved: true,
          reasons: [],
          items: planItems.map((item) => ({ itemId: item.id, verdict: 'passed', reason: 'the inserted step consumes s2' })),
        }),
        write_residual: () => ({ changes: modified.residual.changes.map(asEdit), notes: 'Adds a dependent step.' }),
        judge_rubric_item: () => ({ verdict: 'passed', explanation: 'instruction.md and tests/test.sh agree on every output path.' }),
        // The extraction role run on the built candidate: what its files implement.
        extract_sequence: () => withSummaries(plan.child),
      }),
    });
    const claude = new AnthropicSynthesiser({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 1 });
    const lineage = await findOrCreateLineage(db, seedVersionId, {
      axisPolicy: { kind: 'fixed', axis: 'length' },
      effort: 'low',
      synthesiser: 'anthropic',
      seed: 5,
      loops: { maxPlanRounds: 2, maxModifyRounds: 2 },
    });

    const generation = await evolveGeneration(context(db, sandbox, claude), lineage.row.id);

    expect(generation.error).toBeNull();
    expect(generation.state).toBe('awaiting-review');
    expect(fake.violations()).toEqual([]);
    const tools = new Set(fake.requests.map((r) => r.forcedTool));
    expect([...tools].sort()).toEqual(['extract_sequence', 'judge_rubric_item', 'propose_plan', 'review_plan', 'write_residual']);
    // D is measured on the sequence extracted from the built candidate, and it rose.
    const child = await db.environmentVersion.findUniqueOrThrow({ where: { id: generation.versionId! } });
    const parentRow = await db.environmentVersion.findUniqueOrThrow({ where: { id: seedVersionId } });
    const total = (v: typeof child) => v.difficultyLength! + v.difficultyScenario! + v.difficultySkill!;
    expect(total(child)).toBeGreaterThan(total(parentRow));
    expect(JSON.parse(child.metadata).sequence.steps).toHaveLength(plan.child.steps.length);
    // The stable prefix (tools, method, rubric) was cached once and then read back.
    expect(claude.usage().cacheReadInputTokens).toBeGreaterThan(0);

    const runs = await db.validatorRun.findMany({ where: { versionId: generation.versionId! }, include: { rubricVerdicts: true } });
    // The counter-check runs for Claude-made generations too: the seed's solution does not answer
    // the added step. The child keeps the seed's near misses, and its tests still reject every one.
    expect(runs.map((r) => `${r.kind}:${r.verdict}`).sort()).toEqual([
      'counter-check:passed',
      'invalid-test:passed',
      'near-miss:passed',
      'oracle:passed',
      'rubric:passed',
    ]);
    const counter = parseSolutionCheckReport(runs.find((r) => r.kind === 'counter-check')!.rewardDetail)!;
    expect(counter.checkedSteps).toEqual(expect.arrayContaining(plan.edit.inserted));
    expect(counter.runs.map((r) => [r.ancestor?.label, r.pass, r.outcome])).toEqual([
      ['the seed', 'as-is', 'caught'],
      ['the seed', 'unwrapped', 'caught'],
    ]);
    const llm = runs.find((r) => r.kind === 'rubric')!.rubricVerdicts.filter((v) => v.method === 'llm');
    expect(llm.length).toBeGreaterThan(0);
    expect(llm.every((v) => v.verdict === 'passed')).toBe(true);
  });

  it('fails an attempt whose built candidate is not harder than its parent, as a rubric failure with both numbers', async () => {
    const { db } = testDb;
    const seedVersionId = await storeProceduralSeed(db, 52, 'claude-seed-hollow');
    const seed = await getVersion(db, seedVersionId);
    const parent = { versionId: seedVersionId, bundle: await loadBundle(db, seedVersionId), sequence: parseSequence(seed!.metadata.sequence) };
    const procedural = new ProceduralSynthesiser();
    const plan = await procedural.propose({ parent, axis: 'length', effort: 'low', seed: 7, rubric: [], feedback: [], minGain: 0.05 });
    const planItems = await activeRubric(db, { appliesTo: 'plan' });
    await fake?.close();
    fake = await startFakeAnthropic({
      respond: answerByTool({
        propose_plan: () => ({ edit: plan.edit, child: withSummaries(plan.child), rationale: plan.rationale }),
        review_plan: () => ({ approved: true, reasons: [], items: planItems.map((item) => ({ itemId: item.id, verdict: 'passed', reason: 'fine' })) }),
        // The modifier only rewords the instruction: the files still implement the parent's two steps.
        write_residual: () => ({ changes: [{ op: 'modify', path: 'instruction.md', content: 'Reworded.\n' }], notes: 'Adds a dependent step.' }),
        extract_sequence: () => withSummaries(parent.sequence),
      }),
    });
    const claude = new AnthropicSynthesiser({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 1 });
    const lineage = await findOrCreateLineage(db, seedVersionId, {
      axisPolicy: { kind: 'fixed', axis: 'length' },
      effort: 'low',
      synthesiser: 'anthropic',
      seed: 6,
      loops: { maxPlanRounds: 1, maxModifyRounds: 1 },
    });
    const generation = await evolveGeneration(context(db, sandbox, claude), lineage.row.id);
    expect(generation.state).toBe('failed');
    const [attempt] = await db.attempt.findMany({ where: { generationId: generation.id }, include: { validatorRuns: true } });
    expect(attempt!.state).toBe('invalid');
    expect(attempt!.error).toMatch(
      /^rubric: monotone-difficulty: the sequence extracted from the built candidate has D [\d.]+ .*not more than the parent's D [\d.]+ .* by 0.05; the approved plan promised D [\d.]+/,
    );
    expect(attempt!.validatorRuns).toHaveLength(0);
  });
});
