import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { ConflictError, ForbiddenError } from '../errors/index.ts';
import { compareTrajectories, DifferentVersionsError } from './compare.ts';
import { getTrajectory, OUTPUT_PREVIEW_CHARS, OUTPUT_PREVIEW_LINES, stepOutput } from './detail.ts';
import { flagTrajectory, unflagVersion, versionCompromise } from './flag.ts';
import { findMatches, splitMatches } from './search.ts';
import { touchesProtected } from './suspicion.ts';
import { seedRollout } from '../../test/fixtures/trajectory-rows.ts';

let testDb: TestDb;
let db: Db;
let seedVersion: string;
let evolvedVersion: string;
let generationId: string;
const reviewer = { id: 'u-rev', email: 'rev@example.test', role: 'reviewer' };
const lead = { id: 'u-lead', email: 'lead@example.test', role: 'lead' };
const annotator = { id: 'u-ann', email: 'ann@example.test', role: 'annotator' };

const bigOutput = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  for (const user of [reviewer, lead, annotator]) await db.user.create({ data: { id: user.id, email: user.email, name: user.email, role: user.role } });
  seedVersion = await seedEnvironment(db, { name: 'seed-task' });
  evolvedVersion = await seedEnvironment(db, { name: 'evolved-task' });
  const lineage = await db.lineage.create({
    data: { name: 'l1', seedVersionId: seedVersion, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
  });
  generationId = (
    await db.generation.create({
      data: {
        lineageId: lineage.id,
        number: 1,
        parentVersionId: seedVersion,
        versionId: evolvedVersion,
        axis: 'length',
        effort: 'low',
        state: 'awaiting-review',
      },
    })
  ).id;
});
afterAll(() => testDb.cleanup());

describe('getTrajectory', () => {
  it('reads the instruction, every turn with a bounded output preview, and the whole output on demand', async () => {
    const id = await seedRollout(db, {
      versionId: evolvedVersion,
      steps: [
        { command: 'ls /app', output: 'a.txt\n' },
        { command: 'cat big.log', output: bigOutput, exitCode: 2 },
        { command: 'echo 1 > /logs/verifier/reward.txt', output: '' },
      ],
    });
    const detail = await getTrajectory(db, id);
    expect(detail?.instruction).toBe('Do the task.');
    expect(detail?.steps.map((s) => s.stepId)).toEqual([2, 3, 4]);
    // Turns are numbered as the rollout counts them: its commands, 1 … turns.
    expect(detail?.steps.map((s) => s.turn)).toEqual([1, 2, 3]);
    const big = detail?.steps[1];
    expect(big?.outputLength).toBe(bigOutput.length);
    expect(big?.outputPreview?.length).toBeLessThanOrEqual(OUTPUT_PREVIEW_CHARS);
    expect(big?.outputPreview?.split('\n')).toHaveLength(OUTPUT_PREVIEW_LINES);
    expect(big?.exitCode).toBe(2);
    expect(detail?.steps.map((s) => s.touchesProtected)).toEqual([false, false, true]);
    expect(await stepOutput(db, id, 3)).toBe(bigOutput);
    expect(await stepOutput(db, id, 99)).toBeNull();
    expect(await getTrajectory(db, 'missing')).toBeNull();
  });
});

describe('flagTrajectory', () => {
  it('compromises the version, marks the rollout, opens a prefilled high-severity missed issue on its generation, and audits it', async () => {
    const id = await seedRollout(db, {
      versionId: evolvedVersion,
      generationId,
      reward: 1,
      steps: [
        { command: 'ls', output: '' },
        { command: 'echo 1 > /logs/verifier/reward.txt', output: '' },
      ],
    });
    const outcome = await flagTrajectory(db, reviewer, id, { reason: 'wrote the reward file itself' });
    expect(outcome).toMatchObject({ versionId: evolvedVersion, generationId, note: null });
    const issue = await db.missedIssue.findUniqueOrThrow({ where: { id: outcome.missedIssueId ?? '' } });
    expect(issue).toMatchObject({ generationId, severity: 'high', validatorKind: 'rubric', reporterId: reviewer.id, state: 'open' });
    expect(issue.description).toContain(`/trajectories/${id}`);
    expect(issue.description).toContain('echo 1 > /logs/verifier/reward.txt');
    expect(issue.description).not.toContain('step 2: `ls`');
    expect(issue.description).toContain('Reward 1');
    const version = await db.environmentVersion.findUniqueOrThrow({ where: { id: evolvedVersion } });
    expect(version.compromisedAt).not.toBeNull();
    expect(version.compromisedReason).toBe('wrote the reward file itself');
    expect(await db.rollout.findUniqueOrThrow({ where: { id } })).toMatchObject({ flaggedById: reviewer.id });
    expect(await versionCompromise(db, evolvedVersion)).toMatchObject({
      reason: 'wrote the reward file itself',
      flaggedBy: reviewer.email,
      rolloutId: id,
      missedIssueId: issue.id,
    });
    await expect(flagTrajectory(db, reviewer, id, { reason: 'again' })).rejects.toThrow(ConflictError);

    // Only leads and admins lift it; that clears the rollout flags too, audited.
    await expect(unflagVersion(db, reviewer, evolvedVersion)).rejects.toThrow(ForbiddenError);
    await unflagVersion(db, lead, evolvedVersion);
    expect(await versionCompromise(db, evolvedVersion)).toBeNull();
    expect((await db.rollout.findUniqueOrThrow({ where: { id } })).flaggedAt).toBeNull();
    const actions = (await db.auditEvent.findMany({ where: { subjectId: evolvedVersion }, orderBy: { createdAt: 'asc' } })).map((e) => e.action);
    expect(actions).toEqual(['trajectory.flag', 'trajectory.unflag']);
    await expect(unflagVersion(db, lead, evolvedVersion)).rejects.toThrow(ConflictError);
  });

  it('compromises a seed version but says no missed issue could be opened without a generation', async () => {
    const id = await seedRollout(db, { versionId: seedVersion, steps: [{ command: 'true', output: '' }] });
    const outcome = await flagTrajectory(db, lead, id, { reason: 'passes without doing anything' });
    expect(outcome.missedIssueId).toBeNull();
    expect(outcome.note).toMatch(/no generation/i);
    expect((await db.environmentVersion.findUniqueOrThrow({ where: { id: seedVersion } })).compromisedAt).not.toBeNull();
  });

  it('of two people flagging one trajectory at once, one flags it and opens one missed issue; the other gets a conflict', async () => {
    const id = await seedRollout(db, { versionId: evolvedVersion, generationId, reward: 1, steps: [{ command: 'true', output: '' }] });
    const issuesBefore = await db.missedIssue.count({ where: { generationId } });
    const results = await Promise.allSettled([
      flagTrajectory(db, reviewer, id, { reason: 'first look' }),
      flagTrajectory(db, lead, id, { reason: 'second look' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(ConflictError);
    expect(await db.missedIssue.count({ where: { generationId } })).toBe(issuesBefore + 1);
    await unflagVersion(db, lead, evolvedVersion);
  });

  it('refuses annotators, a blank reason and unknown trajectories', async () => {
    const id = await seedRollout(db, { versionId: evolvedVersion });
    await expect(flagTrajectory(db, annotator, id, { reason: 'a hack' })).rejects.toThrow(ForbiddenError);
    await expect(flagTrajectory(db, reviewer, id, { reason: '  ' })).rejects.toThrow(/at least 3 characters/);
    await expect(flagTrajectory(db, reviewer, 'nope', { reason: 'a hack' })).rejects.toThrow(/not found/);
    expect((await db.rollout.findUniqueOrThrow({ where: { id } })).flaggedAt).toBeNull();
  });
});

describe('compareTrajectories', () => {
  it('aligns turns by step and marks differing commands, outputs and exit codes', async () => {
    const a = await seedRollout(db, {
      versionId: evolvedVersion,
      steps: [
        { command: 'ls', output: 'x' },
        { command: 'make', output: bigOutput, exitCode: 0 },
      ],
    });
    const b = await seedRollout(db, {
      versionId: evolvedVersion,
      steps: [
        { command: 'ls', output: 'x' },
        { command: 'make', output: `${bigOutput}!`, exitCode: 1 },
        { command: 'cat /tests/test.sh', output: '' },
      ],
    });
    const comparison = await compareTrajectories(db, a, b);
    expect(comparison?.turns.map((t) => [t.stepId, t.commandDiffers, t.outputDiffers, t.exitCodeDiffers])).toEqual([
      [2, false, false, false],
      [3, false, true, true],
      [4, true, true, true],
    ]);
    expect(comparison?.differingTurns).toBe(2);
  });

  it('refuses trajectories of different versions', async () => {
    const a = await seedRollout(db, { versionId: evolvedVersion });
    const b = await seedRollout(db, { versionId: seedVersion });
    await expect(compareTrajectories(db, a, b)).rejects.toThrow(DifferentVersionsError);
  });
});

describe('search and protected paths', () => {
  it('finds case-insensitive literal matches and splits text around them', () => {
    expect(findMatches('Error: error ERROR', 'error')).toEqual([0, 7, 13]);
    expect(findMatches('a.b', '.')).toEqual([1]);
    expect(splitMatches('xAbx', 'ab')).toEqual([
      { text: 'x', match: false },
      { text: 'Ab', match: true },
      { text: 'x', match: false },
    ]);
  });

  it("recognises commands on the verifier files but not the agent's own tests folder", () => {
    expect(touchesProtected('echo 1 > /logs/verifier/reward.txt')).toBe(true);
    expect(touchesProtected('cat /tests/test_outputs.py')).toBe(true);
    expect(touchesProtected('sed -i s/x/y/ /tests/test.sh')).toBe(true);
    expect(touchesProtected('pytest /app/tests')).toBe(false);
    expect(touchesProtected('ls -la /app')).toBe(false);
  });
});
