import { describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../../test/env/task-fixtures.ts';
import { AXES, EFFORTS, type Axis, type Effort, type Sequence } from '../../sequence/types.ts';
import type { ParentEnvironment, Plan, RubricItemView } from '../types.ts';
import { contentHash } from '../../env/content-hash.ts';
import { applyResidual, diffBundles } from '../../env/residual.ts';
import { renderEnvironment } from './render.ts';
import { ProceduralSynthesiser } from './synthesiser.ts';

const sequence: Sequence = {
  steps: [
    { id: 's1', scenario: 'web-access-log', skill: 'awk-fields', dependsOn: [] },
    { id: 's2', scenario: 'payments-ledger', skill: 'sqlite-sql', dependsOn: ['s1'] },
    { id: 's3', scenario: 'mail-spool', skill: 'grep-regex', dependsOn: ['s2'] },
  ],
};
const parent: ParentEnvironment = { versionId: 'v0', bundle: renderEnvironment(sequence, { seed: 21, name: 'parent' }), sequence };
const synth = new ProceduralSynthesiser();
const rubric: RubricItemView[] = [
  { id: 'r1', key: 'plan-novel', title: 'Novel', description: '', question: 'Is it novel?', check: null, appliesTo: 'plan' },
  { id: 'r2', key: 'env-tests', title: 'Tests', description: '', question: null, check: 'true', appliesTo: 'environment' },
  { id: 'r3', key: 'both', title: 'Both', description: '', question: 'Is it clear?', check: null, appliesTo: 'both' },
];

const propose = (axis: Axis, effort: Effort, seed: number) => synth.propose({ parent, axis, effort, seed, rubric, feedback: [], minGain: 0.05 });
const multiset = (names: string[]) => [...names].sort();

describe('ProceduralSynthesiser.propose', () => {
  for (const axis of AXES) {
    for (const effort of EFFORTS) {
      it(`${axis}/${effort}: plans that respect the axis and effort and that the reviewer approves`, async () => {
        for (let seed = 0; seed < 25; seed++) {
          const plan = await propose(axis, effort, seed);
          const review = await synth.reviewPlan({ parent, plan, rubric });
          expect(review.reasons, `seed ${seed}`).toEqual([]);
          const child = plan.child.steps;
          if (axis === 'length') {
            expect(child.length).toBeGreaterThan(sequence.steps.length);
            for (const id of plan.edit.inserted) expect(child.find((s) => s.id === id)!.dependsOn.length).toBeGreaterThan(0);
            if (effort === 'low') expect(plan.edit.inserted).toHaveLength(1);
            if (effort === 'high') expect(plan.edit.inserted.length).toBeGreaterThanOrEqual(2);
          } else {
            const kept = axis === 'scenario' ? 'skill' : 'scenario';
            expect(multiset(child.map((s) => s[kept]))).toEqual(multiset(sequence.steps.map((s) => s[kept])));
            expect(plan.edit.replaced.length).toBeGreaterThan(0);
            expect(plan.edit.replaced.every((r) => r.field === axis && r.from !== r.to)).toBe(true);
            if (effort === 'low') expect(plan.edit.replaced).toHaveLength(1);
          }
          expect(plan.rationale.length).toBeGreaterThan(20);
        }
      });
    }
  }

  it('is deterministic in its seed and prefers names the sequence does not use', async () => {
    expect(await propose('skill', 'max', 7)).toEqual(await propose('skill', 'max', 7));
    const plan = await propose('scenario', 'low', 3);
    expect(sequence.steps.map((s) => s.scenario)).not.toContain(plan.edit.replaced[0]!.to);
  });
});

describe('ProceduralSynthesiser.reviewPlan', () => {
  const review = (plan: Plan) => synth.reviewPlan({ parent, plan, rubric });

  it('records plan rubric items it cannot check as unjudged, never passed', async () => {
    const result = await review(await propose('skill', 'low', 1));
    expect(result.approved).toBe(true);
    expect(result.items).toEqual([
      expect.objectContaining({ itemId: 'r1', verdict: 'unjudged' }),
      expect.objectContaining({ itemId: 'r3', verdict: 'unjudged' }),
    ]);
  });

  it('rejects a scenario plan that also changes a skill', async () => {
    const plan = await propose('scenario', 'low', 1);
    const child = { steps: plan.child.steps.map((s, i) => (i === 0 ? { ...s, skill: 'tar-archive' } : s)) };
    const result = await review({ ...plan, child });
    expect(result.approved).toBe(false);
    expect(result.reasons.join('\n')).toMatch(/skill changed/);
  });

  it('rejects low effort that changes two steps, unknown names, and inserted steps without a dependency', async () => {
    const twoSteps = { steps: sequence.steps.map((s, i) => (i < 2 ? { ...s, skill: i === 0 ? 'jq-query' : 'tar-archive' } : s)) };
    const lowTwo: Plan = { edit: { axis: 'skill', effort: 'low', inserted: [], replaced: [] }, child: twoSteps, rationale: 'x' };
    expect((await review(lowTwo)).reasons.join('\n')).toMatch(/low effort changes exactly one step/);

    const unknown = { steps: sequence.steps.map((s, i) => (i === 0 ? { ...s, skill: 'telepathy' } : s)) };
    const plan = await propose('skill', 'low', 1);
    expect((await review({ ...plan, child: unknown })).reasons.join('\n')).toMatch(/"telepathy" is not in the procedural catalogue/);

    const orphan = { steps: [...sequence.steps, { id: 's4', scenario: 'dns-zone', skill: 'wc-count', dependsOn: [] }] };
    const lengthPlan: Plan = { edit: { axis: 'length', effort: 'low', inserted: ['s4'], replaced: [] }, child: orphan, rationale: 'x' };
    expect((await review(lengthPlan)).reasons.join('\n')).toMatch(/depends on no earlier step/);

    const duplicate = { steps: [...sequence.steps, { id: 's2', scenario: 'dns-zone', skill: 'wc-count', dependsOn: ['s1'] }] };
    expect((await review({ ...lengthPlan, child: duplicate })).approved).toBe(false);
  });
});

describe('ProceduralSynthesiser.modify', () => {
  it('returns the residual that turns the parent bundle into the rendered child', async () => {
    const plan = await propose('length', 'low', 4);
    const out = await synth.modify({ parent, plan, seed: 99, attempt: 1, feedback: [] });
    const child = applyResidual(parent.bundle, out.residual);
    expect(child).toEqual(renderEnvironment(plan.child, { seed: 21, name: 'parent' }));
    expect(out.sequence).toEqual(plan.child);
    // Untouched steps keep their data: nothing under s1..s3 changes when a step is inserted.
    expect(out.residual.changes.filter((c) => /environment\/data\/s[123]\//.test(c.path))).toEqual([]);
  });

  it('titles the child’s instruction with the child’s own name, not its parent’s', async () => {
    const plan = await propose('length', 'low', 4);
    const out = await synth.modify({ parent, plan, seed: 99, attempt: 1, feedback: [], childName: 'logs-g4' });
    const instruction = applyResidual(parent.bundle, out.residual).files.find((f) => f.path === 'instruction.md');
    expect(instruction?.content.toString('utf8').split('\n')[0]).toBe('# logs-g4');
  });

  it('injects the configured fault on its attempt only', async () => {
    const faulty = new ProceduralSynthesiser({ faults: { attempt1: 'lenient-tests' } });
    const plan = await propose('skill', 'low', 2);
    const first = applyResidual(parent.bundle, (await faulty.modify({ parent, plan, seed: 1, attempt: 1, feedback: [] })).residual);
    const second = applyResidual(parent.bundle, (await faulty.modify({ parent, plan, seed: 1, attempt: 2, feedback: ['invalid-test failed'] })).residual);
    const testScript = (b: typeof first) => b.files.find((f) => f.path === 'tests/test.sh')!.content.toString();
    expect(testScript(first)).toMatch(/Fault injected/);
    expect(testScript(second)).not.toMatch(/Fault injected/);
  });

  it('reads an imported seed as one opaque step, and judges nothing', async () => {
    const imported = bundleOf(validTaskFiles(), 'imported');
    expect(await synth.extractSequence(imported)).toEqual({
      steps: [{ id: 's1', scenario: 'imported:imported', skill: 'imported:imported', dependsOn: [], summary: 'the original task, as imported' }],
    });
    expect(await synth.extractSequence(parent.bundle)).toEqual(sequence);
    expect((await synth.judge()).verdict).toBe('unjudged');
  });
});

describe('ProceduralSynthesiser on an imported seed', () => {
  const bundle = bundleOf(validTaskFiles(), 'imported');
  const output = { path: '/app/result.txt', content: Buffer.from('alpha one\nbeta two\nalpha three\n') };
  const withArtifacts = new ProceduralSynthesiser({ artifactSource: { oracleArtifacts: async () => [output] } });

  it('refuses scenario and skill edits of the imported step, naming the remedy', async () => {
    const seedParent = { versionId: 'v0', bundle, sequence: await synth.extractSequence(bundle) };
    for (const axis of ['scenario', 'skill'] as const) {
      await expect(synth.propose({ parent: seedParent, axis, effort: 'low', seed: 1, rubric, feedback: [], minGain: 0.05 })).rejects.toThrow(
        new RegExp(`${axis} edits of the imported step s1 need Claude.*--synth anthropic`),
      );
    }
  });

  it('lengthens it with steps chained onto its output, and again on the chained task', async () => {
    const seedParent = { versionId: 'v0', bundle, sequence: await synth.extractSequence(bundle) };
    const plan = await withArtifacts.propose({ parent: seedParent, axis: 'length', effort: 'low', seed: 3, rubric, feedback: [], minGain: 0.05 });
    expect((await withArtifacts.reviewPlan({ parent: seedParent, plan, rubric })).reasons).toEqual([]);
    expect(plan.child.steps[1]!.dependsOn).toEqual(['s1']);
    const first = await withArtifacts.modify({ parent: seedParent, plan, seed: 8, attempt: 1, feedback: [] });
    const child = applyResidual(bundle, first.residual);
    expect(await withArtifacts.extractSequence(child)).toEqual(plan.child);

    const childParent = { versionId: 'v1', bundle: child, sequence: first.sequence };
    const plan2 = await withArtifacts.propose({ parent: childParent, axis: 'length', effort: 'low', seed: 4, rubric, feedback: [], minGain: 0.05 });
    const second = await withArtifacts.modify({ parent: childParent, plan: plan2, seed: 9, attempt: 1, feedback: [] });
    // The chain keeps the seed it started with, so the earlier step's data is untouched.
    expect(second.residual.changes.filter((c) => c.path.startsWith(`environment/envolve-data/${plan.child.steps[1]!.id}/`))).toEqual([]);
    // Scenario edits of the chained (procedural) steps are the engine's own to make.
    const skillPlan = await withArtifacts.propose({ parent: childParent, axis: 'skill', effort: 'low', seed: 2, rubric, feedback: [], minGain: 0.05 });
    expect(skillPlan.edit.replaced.map((r) => r.stepId)).toEqual([plan.child.steps[1]!.id]);
  });

  it('says what it lacks when it has no sandbox to run the oracle in', async () => {
    const seedParent = { versionId: 'v0', bundle, sequence: await synth.extractSequence(bundle) };
    const plan = await synth.propose({ parent: seedParent, axis: 'length', effort: 'low', seed: 3, rubric, feedback: [], minGain: 0.05 });
    await expect(synth.modify({ parent: seedParent, plan, seed: 1, attempt: 1, feedback: [] })).rejects.toThrow(/without a sandbox to run its oracle/);
  });
});

describe('diffBundles', () => {
  it('round-trips: applying the diff to the parent gives the child, and an empty diff for equal bundles', () => {
    const other = renderEnvironment({ steps: [{ id: 's1', scenario: 'dns-zone', skill: 'tar-archive', dependsOn: [] }] }, { seed: 2, name: 'parent' });
    const residual = diffBundles(parent.bundle, other);
    expect(new Set(residual.changes.map((c) => c.op))).toEqual(new Set(['add', 'modify', 'delete']));
    expect(applyResidual(parent.bundle, residual)).toEqual(other);
    expect(diffBundles(other, other).changes).toEqual([]);
  });
});

describe('ProceduralSynthesiser.modify on a retry', () => {
  const hashOf = (output: { residual: Parameters<typeof applyResidual>[1] }) => contentHash(applyResidual(parent.bundle, output.residual, 'child'));
  const filesOf = (output: { residual: Parameters<typeof applyResidual>[1] }) => applyResidual(parent.bundle, output.residual, 'child');
  const dataOf = (bundle: ReturnType<typeof filesOf>, step: string) =>
    bundle.files.filter((f) => f.path.startsWith(`environment/data/${step}/`)).map((f) => `${f.path}:${f.content.toString('base64')}`);

  it('rebuilds the step the failing validator names, and only that step: two feedbacks, two candidates', async () => {
    const plan = await propose('length', 'low', 3);
    const [a, b] = [plan.child.steps[0]!.id, plan.child.steps.at(-1)!.id];
    const first = await synth.modify({ parent, plan, seed: 101, attempt: 1, feedback: [] });
    const onA = await synth.modify({
      parent,
      plan,
      seed: 102,
      attempt: 2,
      feedback: [`oracle failed: reward 0\nverifier output:\n${a}: failed /app/out/${a}.txt holds '7', expected '9'`],
    });
    const onB = await synth.modify({
      parent,
      plan,
      seed: 102,
      attempt: 2,
      feedback: [`oracle failed: reward 0\nverifier output:\n${b}: failed /app/out/${b}.txt does not exist`],
    });
    expect(new Set([hashOf(first), hashOf(onA), hashOf(onB)]).size).toBe(3);
    const [f, ca, cb] = [filesOf(first), filesOf(onA), filesOf(onB)];
    // The named step gets another construction; an earlier step the feedback does not name keeps its data.
    expect(dataOf(ca, a)).not.toEqual(dataOf(f, a));
    expect(dataOf(cb, a)).toEqual(dataOf(f, a));
    expect(onA.notes).toMatch(new RegExp(`naming ${a}: that step is rebuilt with another question over another data shape`));
    // The variant is recorded in task.toml, and the built check recovers the same sequence from the files.
    expect(ca.files.find((x) => x.path === 'task.toml')!.content.toString()).toMatch(/^generator_variants = /m);
    expect(await synth.extractSequence(ca)).toEqual(plan.child);
  });

  it('re-draws every step from the attempt seed only when the failure names no step', async () => {
    const plan = await propose('length', 'low', 3);
    const first = await synth.modify({ parent, plan, seed: 101, attempt: 1, feedback: [] });
    const retry = await synth.modify({ parent, plan, seed: 102, attempt: 2, feedback: ['nop failed: the container ran out of memory'] });
    expect(hashOf(retry)).not.toBe(hashOf(first));
    expect(retry.notes).toMatch(/names no step, so every step's data is re-drawn from seed 102/);
    // Without feedback the same attempt renders the same bytes: the lineage's seed keeps data stable.
    const again = await synth.modify({ parent, plan, seed: 999, attempt: 1, feedback: [] });
    expect(hashOf(again)).toBe(hashOf(first));
  });
});
