import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { adjudicate, adjudicationQueue } from './adjudication.ts';
import { annotatorItemView } from './annotator-view.ts';
import { claimNext, LEASE_MS } from './assignment.ts';
import { CalibrationConflictError, CalibrationInputError } from './errors.ts';
import { exportCalibration, toCsv, toJsonl } from './export.ts';
import { submitLabel } from './labelling.ts';
import { stratifiedSample, largestStratifiedSize } from './sample.ts';
import { setMetrics } from './set-metrics.ts';
import { createCalibrationSet, listSetsForAnnotator } from './sets.ts';
import { isCalibrationStale, verifierVersionOf } from './verifier-version.ts';
import { seedRollouts } from '../../test/fixtures/calibration-rows.ts';
import { BLIND_ITEM_FIELDS, BLIND_TRAJECTORY_FIELDS, BLIND_TURN_FIELDS, forbiddenKeysIn } from './blind.ts';
import { trajectoryView, withoutGeneration } from './trajectory-view.ts';

let testDb: TestDb;
let db: Db;
let versionId: string;
const lead = { id: 'u-lead', email: 'lead@example.test' };
const ann = { id: 'u-ann', email: 'ann@example.test' };
const bob = { id: 'u-bob', email: 'bob@example.test' };
const rev = { id: 'u-rev', email: 'rev@example.test' };

const TASK = {
  'task.toml': '[verifier]\ntimeout_sec = 60\n',
  'instruction.md': 'Write hello to /app/out.txt.\n',
  'environment/Dockerfile': 'FROM envolve/base:bookworm\n',
  'tests/test.sh': '#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n',
};

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  await db.user.create({ data: { ...lead, name: 'Lead', role: 'lead' } });
  await db.user.create({ data: { ...ann, name: 'Ann', role: 'annotator' } });
  await db.user.create({ data: { ...bob, name: 'Bob', role: 'annotator' } });
  await db.user.create({ data: { ...rev, name: 'Rev', role: 'reviewer' } });
  versionId = await seedEnvironment(db, { name: 'hello', files: TASK, createdAt: new Date('2025-01-01') });
  await seedRollouts(db, versionId, [
    ...['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, passed: true, files: { '/app/out.txt': `hello from ${id}` } })),
    ...['f1', 'f2', 'f3'].map((id) => ({ id, passed: false })),
    { id: 'running', passed: true, status: 'running' },
  ]);
});
afterAll(() => testDb.cleanup());

const newSet = (overrides: Record<string, unknown> = {}) =>
  createCalibrationSet(db, lead, {
    scope: { kind: 'versions', versionIds: [versionId] },
    size: 4,
    passShare: 0.5,
    seed: 7,
    annotatorEmails: [ann.email, bob.email],
    overlap: 2,
    ...overrides,
  });

describe('stratifiedSample', () => {
  const candidates = [
    ...Array.from({ length: 10 }, (_, i) => ({ rolloutId: `p${i}`, passed: true })),
    ...Array.from({ length: 6 }, (_, i) => ({ rolloutId: `f${i}`, passed: false })),
  ];

  it('takes round(size · passShare) passes and the rest fails, deterministically per seed and independent of row order', () => {
    const a = stratifiedSample(candidates, { size: 8, passShare: 0.25, seed: 3 });
    expect(a.filter((s) => s.passed)).toHaveLength(2);
    expect(a.filter((s) => !s.passed)).toHaveLength(6);
    expect(a.map((s) => s.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(stratifiedSample([...candidates].reverse(), { size: 8, passShare: 0.25, seed: 3 })).toEqual(a);
    expect(stratifiedSample(candidates, { size: 8, passShare: 0.25, seed: 4 }).map((s) => s.rolloutId)).not.toEqual(a.map((s) => s.rolloutId));
    expect(new Set(a.map((s) => s.rolloutId)).size).toBe(8);
  });

  it('interleaves the strata so the order does not give the verdict away', () => {
    const order = stratifiedSample(candidates, { size: 12, passShare: 0.5, seed: 11 }).map((s) => s.passed);
    expect(order.slice(0, 6).every(Boolean)).toBe(false);
    expect(order.slice(0, 6).some(Boolean)).toBe(true);
  });

  it('refuses with the numbers when a stratum is short', () => {
    expect(() => stratifiedSample(candidates, { size: 50, passShare: 0.5, seed: 1 })).toThrow(
      'not enough trajectories to sample 50: need 25 verifier-passed trajectories, the scope has 10; need 25 verifier-failed trajectories, the scope has 6. The largest set this scope allows at pass share 0.5 is 13.',
    );
    expect(() => stratifiedSample(candidates, { size: 4, passShare: 1.5, seed: 1 })).toThrow(/pass share/);
    // The offered size does sample.
    expect(stratifiedSample(candidates, { size: 13, passShare: 0.5, seed: 1 })).toHaveLength(13);
    expect(largestStratifiedSize({ pass: 10, fail: 0 }, 0.5)).toBe(1);
    expect(largestStratifiedSize({ pass: 0, fail: 0 }, 0.5)).toBe(0);
  });
});

describe('createCalibrationSet', () => {
  it('samples finished rollouts of the scope by stratum, records the verdicts and the verifier version, and audits', async () => {
    const set = await newSet();
    expect(set).toMatchObject({
      size: 4,
      design: 'stratified',
      strata: { pass: 2, fail: 2 },
      overlap: 2,
      seed: 7,
      state: 'labelling',
      labels: 0,
      labelsNeeded: 8,
    });
    expect(set.population).toEqual({ pass: 4, fail: 3 }); // the running rollout is not in the scope
    expect(set.verifierVersion).toBe(await verifierVersionOf(db, [versionId]));
    const items = await db.calibrationItem.findMany({ where: { setId: set.id } });
    expect(items.filter((i) => i.verifierPassed)).toHaveLength(2);
    expect(items.map((i) => i.rolloutId)).not.toContain('running');
    expect(items.every((i) => i.stratum === (i.verifierPassed ? 'pass' : 'fail'))).toBe(true);
    expect(await db.auditEvent.count({ where: { subjectId: set.id, action: 'calibration.create' } })).toBe(1);
  });

  it('draws a plain random set when asked, recording the design and the population', async () => {
    const set = await newSet({ design: 'random', size: 5, seed: 3 });
    expect(set).toMatchObject({ design: 'random', population: { pass: 4, fail: 3 } });
    expect(set.strata.pass + set.strata.fail).toBe(5);
    const items = await db.calibrationItem.findMany({ where: { setId: set.id } });
    expect(items.filter((i) => i.verifierPassed)).toHaveLength(set.strata.pass);
    await expect(newSet({ design: 'random', size: 8 })).rejects.toThrow(/the scope has 7/);
  });

  it('refuses a short stratum, unknown or non-labelling accounts, and an overlap larger than the annotators', async () => {
    await expect(newSet({ size: 10 })).rejects.toThrow('need 5 verifier-failed trajectories, the scope has 3');
    await expect(newSet({ annotatorEmails: ['nobody@example.test'] })).rejects.toThrow('no account has the email nobody@example.test');
    await expect(newSet({ annotatorEmails: [rev.email], overlap: 1 })).rejects.toThrow(/rev@example.test \(reviewer\) may not label/);
    await expect(newSet({ overlap: 3 })).rejects.toThrow(CalibrationInputError);
    await expect(newSet({ scope: { kind: 'lineage', lineageId: 'nope' } })).rejects.toThrow('no lineage has the id nope');
  });
});

describe('assignment, labelling and the blind read model', () => {
  it('leases one item at a time, resumes on it, releases it on submit and settles agreed items', async () => {
    const set = await newSet({ seed: 21 });
    const t0 = new Date();
    const a = await claimNext(db, set.id, ann.id, t0);
    expect(a.current).not.toBeNull();
    expect(a.remaining).toBe(4);
    // Bob is not given Ann's leased item; coming back, Ann resumes on hers.
    const b = await claimNext(db, set.id, bob.id, t0);
    expect(b.current).not.toBe(a.current);
    expect((await claimNext(db, set.id, ann.id, t0)).current).toBe(a.current);
    await expect(submitLabel(db, { setId: set.id, itemId: a.current!, annotatorId: bob.id }, { answer: 'pass' }, t0)).rejects.toThrow(CalibrationConflictError);
    await expect(annotatorItemView(db, { setId: set.id, itemId: a.current!, annotatorId: bob.id }, t0)).rejects.toThrow('not yours');

    // After the lease expires, the item is open to Bob.
    const later = new Date(t0.getTime() + LEASE_MS + 1);
    await expect(annotatorItemView(db, { setId: set.id, itemId: a.current!, annotatorId: bob.id }, later)).resolves.toMatchObject({ id: a.current });

    const next = await submitLabel(db, { setId: set.id, itemId: a.current!, annotatorId: ann.id }, { answer: 'pass', note: 'looks done' }, t0);
    expect(next.labelled).toEqual([a.current]);
    expect(next.current).not.toBe(a.current);
    const item = await db.calibrationItem.findUniqueOrThrow({ where: { id: a.current! } });
    expect(item).toMatchObject({ assigneeId: null, finalLabel: null });
    // Bob labels it the same: agreed → final.
    await submitLabel(db, { setId: set.id, itemId: a.current!, annotatorId: bob.id }, { answer: 'pass' }, t0);
    expect((await db.calibrationItem.findUniqueOrThrow({ where: { id: a.current! } })).finalLabel).toBe('pass');
    expect(await listSetsForAnnotator(db, ann.id)).toContainEqual(expect.objectContaining({ id: set.id, myLabels: 1, items: 4 }));
  });

  it('shows the trajectory and artifacts but never the reward, the verdict or other labels', async () => {
    const set = await newSet({ seed: 5 });
    const q = await claimNext(db, set.id, ann.id);
    const passItem = await db.calibrationItem.findFirstOrThrow({ where: { setId: set.id, verifierPassed: true } });
    await db.calibrationLabel.create({ data: { itemId: passItem.id, annotatorId: bob.id, answer: 'fail', note: 'BOB-SECRET-NOTE' } });
    const viewIds = [q.current!, q.upcoming!, passItem.id];
    for (const itemId of viewIds) {
      const view = await annotatorItemView(db, { setId: set.id, itemId, annotatorId: ann.id });
      expect(view.trajectory.instruction).toContain('Write hello');
      expect(view.trajectory.turns.map((t) => t.command)).toContain(
        `echo ${(await db.calibrationItem.findUniqueOrThrow({ where: { id: itemId } })).rolloutId}`,
      );
      const json = JSON.stringify(view);
      for (const secret of ['reward', 'passed', 'verifier', 'stratum', 'VERIFIER-LOG', 'BOB-SECRET-NOTE', 'fail"', 'simulated', 'working on', 'Do the task.'])
        expect(json).not.toContain(secret);
      // Exactly the allow-listed fields, at every level.
      expect(Object.keys(view).sort()).toEqual([...BLIND_ITEM_FIELDS].sort());
      expect(Object.keys(view.trajectory).sort()).toEqual([...BLIND_TRAJECTORY_FIELDS].sort());
      for (const turn of view.trajectory.turns) expect(Object.keys(turn).sort()).toEqual([...BLIND_TURN_FIELDS].sort());
      expect(forbiddenKeysIn(view)).toEqual([]);
    }
    const withArtifact = await annotatorItemView(db, { setId: set.id, itemId: passItem.id, annotatorId: ann.id });
    expect(withArtifact.trajectory.artifacts).toEqual([
      { path: '/app/out.txt', size: expect.any(Number), text: expect.stringMatching(/^hello from p/), omitted: null },
    ]);
  });
});

describe('adjudication and metrics', () => {
  it('sends disagreements to a lead, audits the final label, and computes the metrics against final labels', async () => {
    const set = await newSet({ seed: 9 });
    const items = await db.calibrationItem.findMany({ where: { setId: set.id }, orderBy: { position: 'asc' } });
    // Ann: every item as the verifier said, except she is unsure about one fail. Bob disagrees on one pass.
    const firstPass = items.find((i) => i.verifierPassed)!;
    const firstFail = items.find((i) => !i.verifierPassed)!;
    for (const who of [ann, bob]) {
      for (;;) {
        const q = await claimNext(db, set.id, who.id);
        if (!q.current) break;
        const item = items.find((i) => i.id === q.current)!;
        let answer: 'pass' | 'fail' | 'unsure' = item.verifierPassed ? 'pass' : 'fail';
        if (item.id === firstFail.id) answer = 'unsure';
        if (who === bob && item.id === firstPass.id) answer = 'fail';
        await submitLabel(db, { setId: set.id, itemId: item.id, annotatorId: who.id }, { answer });
      }
    }
    expect((await db.calibrationSet.findUniqueOrThrow({ where: { id: set.id } })).state).toBe('adjudicating');
    const queue = await adjudicationQueue(db, set.id);
    expect(queue.map((q) => q.id)).toEqual([firstPass.id]);
    expect(queue[0]!.labels.map((l) => [l.annotator.email, l.answer])).toEqual([
      [ann.email, 'pass'],
      [bob.email, 'fail'],
    ]);
    await expect(adjudicate(db, lead, { setId: set.id, itemId: firstFail.id }, { label: 'fail' })).rejects.toThrow(/agree/);

    await adjudicate(db, lead, { setId: set.id, itemId: firstPass.id }, { label: 'fail', note: 'output is wrong' });
    expect((await db.calibrationSet.findUniqueOrThrow({ where: { id: set.id } })).state).toBe('complete');
    const audit = await db.auditEvent.findFirstOrThrow({ where: { subjectId: firstPass.id } });
    expect(audit).toMatchObject({ action: 'calibration.adjudicate', actorId: lead.id });
    await expect(submitLabel(db, { setId: set.id, itemId: firstPass.id, annotatorId: bob.id }, { answer: 'pass' })).rejects.toThrow(/adjudicated/);

    // Final: pass items → one pass (TP), one fail (FP); fail items → one unsure (excluded), one fail (TN).
    const m = await setMetrics(db, set.id);
    expect(m.recorded.metrics.confusion).toEqual({ tp: 1, fp: 1, fn: 0, tn: 1 });
    expect(m.recorded.metrics.unsure).toBe(1);
    expect(m.recorded.metrics.falsePositiveRate.value).toBe(0.5);
    // Weighted by the scope's strata at sampling time: FP = W_pass·1/2, TN = W_fail·1/1.
    const [wPass, wFail] = [4 / 7, 3 / 7];
    expect(m.recorded.population.falsePositiveRate.value).toBeCloseTo(wPass / 2 / (wPass / 2 + wFail), 12);
    expect(m.design).toBe('stratified');
    expect(m.recorded.verdict.verdict).toBe('not-trustworthy'); // agreement 2/3 < 0.85
    // Annotators (pass, fail, unsure): items agree on 3 of 4; Ann = (pass, pass, fail, unsure) in some order, Bob differs on one.
    // Table rows Ann / cols Bob: pass→pass 1, pass→fail 1, fail→fail 1, unsure→unsure 1: N = 4, diag 3,
    // rows (2, 1, 1), cols (1, 2, 1): chance = 2 + 2 + 1 = 5 → κ = (4·3 − 5)/(16 − 5) = 7/11
    expect(m.interAnnotator?.method).toBe('cohen');
    expect(m.interAnnotator?.kappa.value).toBeCloseTo(7 / 11, 12);
    expect(m).toMatchObject({ items: 4, finalLabels: 4, awaitingLabels: 0, awaitingAdjudication: 0, rescored: null });

    // Exports.
    const csv = await exportCalibration(db, set.id, 'labels', 'csv');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'set_id,position,item_id,rollout_id,version_id,stratum,verifier_passed,verifier_reward,annotator,answer,note,duration_ms,labelled_at,final_label,adjudicated_by',
    );
    expect(lines).toHaveLength(1 + 8);
    const jsonl = (await exportCalibration(db, set.id, 'metrics', 'jsonl'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { metric: string; value: unknown });
    expect(jsonl.find((r) => r.metric === 'sample_falsePositiveRate')?.value).toBe(0.5);
    expect(jsonl.find((r) => r.metric === 'falsePositiveRate')?.value).toBe(m.recorded.population.falsePositiveRate.value);
    expect(jsonl.find((r) => r.metric === 'design')?.value).toBe('stratified');
    expect(jsonl.find((r) => r.metric === 'inter_annotator_cohen_kappa')?.value).toBeCloseTo(7 / 11, 12);
  });

  it('re-score results appear beside the recorded verifier, with the flipped verdicts counted', async () => {
    const set = await newSet({ seed: 13, overlap: 1, annotatorEmails: [ann.email] });
    const items = await db.calibrationItem.findMany({ where: { setId: set.id } });
    for (const i of items) await db.calibrationItem.update({ where: { id: i.id }, data: { finalLabel: 'fail' } });
    // The newer verifier fails everything: the pass items flip; one re-score errored.
    for (const [n, i] of items.entries()) {
      await db.calibrationRescore.create({
        data: { itemId: i.id, verifierVersion: 'v2', reward: n === 0 ? null : 0, passed: n === 0 ? null : false, error: n === 0 ? 'boom' : null },
      });
    }
    const m = await setMetrics(db, set.id);
    expect(m.recorded.metrics.confusion).toEqual({ tp: 0, fp: 2, fn: 0, tn: 2 });
    expect(m.rescored).toMatchObject({ verifierVersion: 'v2', items: 3, errors: 1 });
    expect(m.rescored!.metrics.confusion.fp).toBe(0);
    expect(m.flipped).toBe(items.filter((i, n) => n > 0 && i.verifierPassed).length);
  });
});

describe('the verifier version', () => {
  it('moves when a newer version of the same task changes only its tests, which makes the set stale', async () => {
    const set = await newSet({ seed: 17 });
    expect(await isCalibrationStale(db, set.id)).toBe(false);
    // A different task with other tests does not count.
    await seedEnvironment(db, { name: 'other', files: { ...TASK, 'tests/test.sh': '#!/bin/bash\nexit 1\n' } });
    expect(await isCalibrationStale(db, set.id)).toBe(false);
    // The same task with fixed tests does.
    await seedEnvironment(db, {
      name: 'hello',
      files: { ...TASK, 'tests/test.sh': '#!/bin/bash\ngrep -q hello /app/out.txt && echo 1 > /logs/verifier/reward.txt\n' },
    });
    expect(await isCalibrationStale(db, set.id)).toBe(true);
  });
});

describe('export formats', () => {
  it('quotes CSV cells with commas, quotes and newlines, ends lines with CRLF; JSONL is one object per line', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          { a: 'x,y', b: 'say "hi"\nthere' },
          { a: null, b: 3 },
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi""\nthere"\r\n,3\r\n');
    expect(toJsonl([{ a: 1 }, { b: 'x' }])).toBe('{"a":1}\n{"b":"x"}\n');
  });
});

describe('the environment an item shows', () => {
  it('is named without its generation, in the header and the instruction’s title', async () => {
    const evolved = await seedEnvironment(db, { name: 'logs-awk-g4', files: { ...TASK, 'instruction.md': '# logs-awk-g4\n\nCount the lines.\n' } });
    await seedRollouts(db, evolved, [{ id: 'g4-run', passed: true }]);
    const view = await trajectoryView(db, 'g4-run');
    expect(view.environmentName).toBe('logs-awk');
    expect(view.instruction).toBe('# logs-awk\n\nCount the lines.\n');
    expect(JSON.stringify(view)).not.toContain('-g4');
    // Only a trailing generation goes; a name that merely contains one keeps it.
    expect(withoutGeneration({ name: 'g4-tools', instruction: 'Use -g4 here.' })).toEqual({ name: 'g4-tools', instruction: 'Use -g4 here.' });
  });
});
