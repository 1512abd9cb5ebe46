// Loop 1 holds evolution to the method: a plan that does not make the task harder is sent back
// with the numbers, a malformed answer from Claude is a sent-back round rather than the end of
// the job, and a lineage whose axis can no longer be made harder stops and says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireKnownDifficulty } from '../../lib/difficulty/index.ts';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { getVersion, loadBundle } from '../../lib/env/store.ts';
import { evolveGeneration, evolveLineage, findOrCreateLineage, lineageReport } from '../../lib/evolution/index.ts';
import { activeRubric, syncBuiltinRubric } from '../../lib/rubric/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { chooseAxis, describeEdit, parseSequence, replaceField } from '../../lib/sequence/index.ts';
import type { Sequence } from '../../lib/sequence/types.ts';
import { AnthropicSynthesiser } from '../../lib/synth/anthropic/index.ts';
import { ProceduralSynthesiser } from '../../lib/synth/procedural/index.ts';
import type { Plan, ProposeInput } from '../../lib/synth/types.ts';
import { answerByTool, startFakeAnthropic, type FakeAnthropic } from '../fakes/anthropic-server.ts';
import { evolutionMs, limitMs } from '../budgets.ts';
import { context, storeNearTopSeed, storeProceduralSeed } from './helpers.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;
let fake: FakeAnthropic | undefined;

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  await syncBuiltinRubric(testDb.db);
});
afterAll(async () => {
  await fake?.close();
  await testDb.cleanup();
});

const LOOPS = { maxPlanRounds: 3, maxModifyRounds: 2, difficultyMargin: 0.05 };
// The limit for evolving `generations` generations of a lineageFor lineage (or a near-top one with LOOPS).
const generationsLimitMs = (generations: number, lengthGrows = false) => limitMs(evolutionMs(generations, { steps: 2, loops: LOOPS, lengthGrows }));

async function lineageFor(seed: number, axis: 'length' | 'scenario' | 'skill', synthesiser: 'procedural' | 'anthropic' = 'procedural') {
  const seedVersionId = await storeProceduralSeed(testDb.db, seed, `gate-${axis}-${seed}`);
  const lineage = await findOrCreateLineage(testDb.db, seedVersionId, {
    axisPolicy: { kind: 'fixed', axis },
    effort: 'low',
    synthesiser,
    seed,
    loops: LOOPS,
  });
  return { lineage, seedVersionId };
}

async function roundsOf(generationId: string) {
  const rounds = await testDb.db.planRound.findMany({ where: { generationId }, orderBy: { round: 'asc' } });
  return rounds.map((r) => ({ approved: r.approved, review: JSON.parse(r.review) as { reasons: string[]; difficulty?: { parent: number; child: number } } }));
}

// The commonest scenario in the reference table: replacing any rarer one with it lowers D.
const COMMONEST = 'web-access-log';

describe('the plan gate', () => {
  it(
    'sends back a plan that lowers D, with the parent and child numbers',
    async () => {
      const { lineage } = await lineageFor(61, 'scenario');
      // First proposal: a legal scenario edit that makes the task EASIER; later rounds propose properly.
      class Easier extends ProceduralSynthesiser {
        override async propose(input: ProposeInput): Promise<Plan> {
          if (input.feedback.length > 0) return super.propose(input);
          const target = input.parent.sequence.steps.find((s) => s.scenario !== COMMONEST)!;
          const child = replaceField(input.parent.sequence, [target.id], 'scenario', [COMMONEST]);
          return { edit: describeEdit(input.parent.sequence, child, 'scenario', 'low'), child, rationale: 'a more familiar scenario' };
        }
      }
      const result = await evolveLineage(context(testDb.db, sandbox, new Easier()), lineage.row.id, 1);
      expect(result.validated).toHaveLength(1);
      const [first, second] = await roundsOf(result.validated[0]!.id);
      expect(first!.approved).toBe(false);
      expect(first!.review.reasons.join('\n')).toMatch(
        /difficulty must rise: a scenario edit has to raise D by more than 0.05, but the parent has D [\d.]+ .* and the child D [\d.]+ .*, a change of -[\d.]+/,
      );
      expect(first!.review.difficulty!.child).toBeLessThan(first!.review.difficulty!.parent);
      expect(second!.approved).toBe(true);
      expect(second!.review.difficulty!.child - second!.review.difficulty!.parent).toBeGreaterThan(0.05);
      const report = await lineageReport(testDb.db, lineage.row.id);
      const seed = await testDb.db.environmentVersion.findUniqueOrThrow({ where: { id: report.seedVersionId } });
      const seedD = seed.difficultyLength! + seed.difficultyScenario! + seed.difficultySkill!;
      expect(requireKnownDifficulty(report.generations[0]!.difficulty, 'generation 1').total).toBeGreaterThan(seedD + 0.05);
    },
    generationsLimitMs(1),
  );

  it(
    'turns a second malformed answer from Claude into a sent-back plan round',
    async () => {
      const { db } = testDb;
      const { lineage, seedVersionId } = await lineageFor(62, 'length', 'anthropic');
      const seed = await getVersion(db, seedVersionId);
      const parent = { versionId: seedVersionId, bundle: await loadBundle(db, seedVersionId), sequence: parseSequence(seed!.metadata.sequence) };
      const plan = await new ProceduralSynthesiser().propose({ parent, axis: 'length', effort: 'low', seed: 3, rubric: [], feedback: [], minGain: 0.05 });
      const planItems = await activeRubric(db, { appliesTo: 'plan' });
      const withSummaries = (sequence: Sequence) => ({ steps: sequence.steps.map((s) => ({ ...s, summary: `${s.skill} over ${s.scenario}` })) });
      let proposals = 0;
      fake = await startFakeAnthropic({
        respond: answerByTool({
          // The first two answers (the call and its corrective turn) name the wrong axis.
          propose_plan: () => ({
            edit: { ...plan.edit, axis: ++proposals <= 2 ? 'skill' : 'length' },
            child: withSummaries(plan.child),
            rationale: plan.rationale,
          }),
          review_plan: () => ({
            approved: true,
            reasons: [],
            items: planItems.map((item) => ({ itemId: item.id, verdict: 'passed', reason: 'consumes an earlier answer' })),
          }),
          write_residual: () => ({ changes: [], notes: 'nothing' }),
        }),
      });
      const claude = new AnthropicSynthesiser({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0 });
      const generation = await evolveGeneration(context(db, sandbox, claude), lineage.row.id);
      // Loop 2 is not this test's subject: an empty residual fails every attempt.
      expect(generation.state).toBe('failed');
      const [first, second] = await roundsOf(generation.id);
      expect(first!.approved).toBe(false);
      expect(first!.review.reasons.join('\n')).toMatch(/edit.axis is "skill" but the requested axis is "length"/);
      expect(second!.approved).toBe(true);
      expect(proposals).toBe(3);
    },
    generationsLimitMs(1, true),
  );

  it(
    'believes Claude when it says no edit along the axis can make the task harder',
    async () => {
      const { db } = testDb;
      const { lineage, seedVersionId } = await lineageFor(63, 'skill', 'anthropic');
      const parentSequence = parseSequence((await getVersion(db, seedVersionId))!.metadata.sequence);
      await fake?.close();
      fake = await startFakeAnthropic({
        respond: answerByTool({
          propose_plan: () => ({
            edit: { axis: 'skill', effort: 'low', inserted: [], replaced: [] },
            child: { steps: parentSequence.steps.map((s) => ({ ...s, summary: s.skill })) },
            rationale: 'none',
            exhausted: 'both steps already use the rarest skill their data supports',
          }),
        }),
      });
      const claude = new AnthropicSynthesiser({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0 });
      const result = await evolveLineage(context(db, sandbox, claude), lineage.row.id, 3);
      expect(result.validated).toHaveLength(0);
      expect(result.exhausted).toBe(
        'axis exhausted at generation 1: skill (the proposer found no skill edit that makes the task harder: both steps already use the rarest skill their data supports)',
      );
      expect(fake.requests.map((r) => r.forcedTool)).toEqual(['propose_plan']);
    },
    generationsLimitMs(3),
  );

  it(
    'stops a fixed scenario lineage on a 2-step seed near the top of the catalogue with "axis exhausted" instead of oscillating',
    async () => {
      const seedVersionId = await storeNearTopSeed(testDb.db, 'gate-scenario-near-top');
      const lineage = await findOrCreateLineage(testDb.db, seedVersionId, {
        axisPolicy: { kind: 'fixed', axis: 'scenario' },
        effort: 'low',
        synthesiser: 'procedural',
        seed: 8,
        loops: LOOPS,
      });
      const log: string[] = [];
      const result = await evolveLineage(context(testDb.db, sandbox, new ProceduralSynthesiser(), log), lineage.row.id, 15);
      expect(result.validated.length).toBeGreaterThan(0);
      expect(result.validated.length).toBeLessThan(15);
      const exhaustedAt = result.validated.length + 1;
      expect(result.exhausted).toMatch(new RegExp(`^axis exhausted at generation ${exhaustedAt}: scenario \\(`));
      const report = await lineageReport(testDb.db, lineage.row.id);
      expect(report.status).toBe('exhausted');
      expect(report.exhaustedAxes.scenario).toMatchObject({ generation: exhaustedAt });
      const totals = report.generations
        .filter((g) => g.state === 'awaiting-review')
        .map((g) => requireKnownDifficulty(g.difficulty, `generation ${g.number}`).total);
      for (let i = 1; i < totals.length; i++) expect(totals[i]! - totals[i - 1]!).toBeGreaterThan(0.05);
      // Asking again changes nothing: the lineage is still exhausted at the same parent.
      const again = await evolveLineage(context(testDb.db, sandbox, new ProceduralSynthesiser()), lineage.row.id, 1);
      expect(again.exhausted).toBe(result.exhausted);
      expect(await testDb.db.generation.count({ where: { lineageId: lineage.row.id } })).toBe(exhaustedAt);
    },
    generationsLimitMs(16),
  );

  it(
    'a weighted lineage skips an exhausted axis and stops only when every axis it may choose is exhausted',
    async () => {
      const { db } = testDb;
      const seedVersionId = await storeNearTopSeed(db, 'gate-weighted-near-top');
      const policy = { kind: 'weighted' as const, weights: { length: 0, scenario: 1, skill: 1 } };
      const lineage = await findOrCreateLineage(db, seedVersionId, {
        axisPolicy: policy,
        effort: 'low',
        synthesiser: 'procedural',
        seed: 2,
      });
      const result = await evolveLineage(context(db, sandbox, new ProceduralSynthesiser()), lineage.row.id, 30);
      const report = await lineageReport(db, lineage.row.id);
      expect(report.status).toBe('exhausted');
      expect(result.exhausted).toMatch(/^axis exhausted at generation \d+: (scenario, skill|skill, scenario) \(/);
      const { scenario, skill } = report.exhaustedAxes;
      expect(scenario!.generation).toBe(skill!.generation);
      // An axis found exhausted earlier was skipped: that generation evolved along the other axis
      // instead of the one the policy chose (and the skipped axis came back once the parent changed).
      const settled = report.generations.filter((g) => g.state === 'awaiting-review');
      const skipped = settled.filter((g) => g.axis !== chooseAxis(policy, g.number, 2));
      expect(skipped.length).toBeGreaterThan(0);
      const totals = settled.map((g) => requireKnownDifficulty(g.difficulty, `generation ${g.number}`).total);
      for (let i = 1; i < totals.length; i++) expect(totals[i]! - totals[i - 1]!).toBeGreaterThan(0.05);
    },
    limitMs(evolutionMs(30, { steps: 2 })),
  );
});
