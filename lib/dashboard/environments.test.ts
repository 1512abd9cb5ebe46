import { describe, expect } from 'vitest';
import { dbTest } from '../../test/fixtures/test.ts';
import { getEnvironment, getValidatorRunLog, listEnvironments } from './environments.ts';
import { seedEnvironment, seedRun } from '../../test/fixtures/dashboard-rows.ts';
import { findOrCreateLineage } from '../evolution/lineage.ts';

const LINEAGE = { axisPolicy: { kind: 'round-robin' }, effort: 'low', synthesiser: 'procedural', seed: 1 } as const;

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));

describe('listEnvironments', () => {
  dbTest('lists versions newest first with their latest verdict per validator kind', async ({ db }) => {
    const older = await seedEnvironment(db, { name: 'count-lines', createdAt: at(0) });
    const newer = await seedEnvironment(db, { name: 'fix-permissions', createdAt: at(1) });
    await seedRun(db, older, { kind: 'oracle', verdict: 'failed', reward: 0, createdAt: at(2) });
    const latestOracle = await seedRun(db, older, { kind: 'oracle', verdict: 'passed', reward: 1, createdAt: at(3) });
    await seedRun(db, older, { kind: 'invalid-test', verdict: 'error', reward: null, createdAt: at(4) });

    const list = await listEnvironments(db);

    expect(list.map((env) => env.name)).toEqual(['fix-permissions', 'count-lines']);
    const [first, second] = list;
    expect(first).toMatchObject({ id: newer, fileCount: 5, oracle: null, invalidTest: null, validationPending: false });
    expect(second?.oracle).toMatchObject({ runId: latestOracle, verdict: 'passed', reward: 1, expectedReward: 1 });
    expect(second?.invalidTest).toMatchObject({ verdict: 'error', reward: null, expectedReward: 0 });
    expect(second?.createdAt).toBe(at(0).toISOString());
  });

  dbTest('filters by a substring of the name', async ({ db }) => {
    await seedEnvironment(db, { name: 'count-lines' });
    await seedEnvironment(db, { name: 'fix-permissions' });

    const list = await listEnvironments(db, { nameContains: 'perm' });

    expect(list.map((env) => env.name)).toEqual(['fix-permissions']);
  });

  dbTest('marks a version pending while a queued or running job mentions it', async ({ db }) => {
    const id = await seedEnvironment(db, { name: 'count-lines' });
    await db.job.create({ data: { kind: 'validate', payload: JSON.stringify({ versionId: id }), state: 'running' } });
    await db.job.create({ data: { kind: 'validate', payload: JSON.stringify({ versionId: 'other' }), state: 'queued' } });

    const [env] = await listEnvironments(db);

    expect(env?.validationPending).toBe(true);
  });

  dbTest('ignores finished jobs', async ({ db }) => {
    const id = await seedEnvironment(db, { name: 'count-lines' });
    await db.job.create({ data: { kind: 'validate', payload: JSON.stringify({ versionId: id }), state: 'succeeded' } });

    const [env] = await listEnvironments(db);

    expect(env?.validationPending).toBe(false);
  });
});

describe('getEnvironment', () => {
  dbTest('returns files, parsed task.toml and every run newest first, without logs', async ({ db }) => {
    const id = await seedEnvironment(db, { name: 'count-lines' });
    const first = await seedRun(db, id, { kind: 'oracle', verdict: 'passed', reward: 1, createdAt: at(1) });
    const second = await seedRun(db, id, { kind: 'invalid-test', verdict: 'passed', reward: 0, createdAt: at(2) });

    const env = await getEnvironment(db, id);

    expect(env?.runs.map((run) => run.id)).toEqual([second, first]);
    expect(env?.runs[0]).not.toHaveProperty('agentLog');
    expect(env?.files.map((file) => [file.path, file.executable])).toEqual([
      ['environment/Dockerfile', false],
      ['instruction.md', false],
      ['solution/solve.sh', true],
      ['task.toml', false],
      ['tests/test.sh', true],
    ]);
    expect(env?.taskTomlError).toBeNull();
    expect(env?.taskTomlSections.find((section) => section.name === 'metadata')?.entries).toContainEqual({
      key: 'tags',
      value: 'bash, files',
    });
  });

  dbTest('keeps an unparsable task.toml as raw text with the parse error', async ({ db }) => {
    const id = await seedEnvironment(db, { name: 'broken', files: { 'task.toml': '[verifier\n', 'instruction.md': 'x' } });

    const env = await getEnvironment(db, id);

    expect(env?.taskToml).toBe('[verifier\n');
    expect(env?.taskTomlSections).toEqual([]);
    expect(env?.taskTomlError).toBeTruthy();
  });

  dbTest('shows the sequence and the three difficulty components once they are known', async ({ db }) => {
    const id = await seedEnvironment(db, { name: 'evolved' });
    expect(await getEnvironment(db, id)).toMatchObject({ sequence: null, difficulty: null });
    const sequence = { steps: [{ id: 's1', scenario: 'web-access-log', skill: 'awk-fields', dependsOn: [] }] };
    await db.environmentVersion.update({
      where: { id },
      data: { metadata: JSON.stringify({ sequence }), difficultyLength: 1, difficultyScenario: 2.5, difficultySkill: 1.25, difficultyModel: 'ref-test' },
    });
    const detail = await getEnvironment(db, id);
    expect(detail?.sequence).toEqual(sequence.steps);
    expect(detail?.difficulty).toEqual({ length: 1, depth: null, scenarioNovelty: 2.5, skillRarity: 1.25, total: 4.75, model: 'ref-test' });
  });

  dbTest('shows the measured median turns per policy beside the estimate, leaving out rollouts that errored', async ({ db }) => {
    const id = await seedEnvironment(db, { name: 'probed' });
    const rollout = (attempt: number, policy: string, turns: number, status = 'completed') =>
      db.rollout.create({ data: { attempt, versionId: id, policy, policyVersion: '1', simulated: policy === 'simulated', seed: attempt, status, turns } });
    for (const [i, turns] of [7, 9, 8, 12].entries()) await rollout(i + 1, 'simulated', turns);
    await rollout(5, 'simulated', 40, 'error');
    await rollout(6, 'oracle', 3);
    await db.rollout.updateMany({ where: { versionId: id, policy: 'oracle' }, data: { sandboxRuntime: 'runsc' } });
    expect((await getEnvironment(db, id))?.measuredTurns).toEqual([
      { policy: 'oracle', simulated: false, rollouts: 1, medianTurns: 3, sandboxRuntimes: ['runsc'] },
      { policy: 'simulated', simulated: true, rollouts: 4, medianTurns: 8.5, sandboxRuntimes: [] },
    ]);
  });

  dbTest("shows the runtime its trials run under, why, and the task's own ask, which cannot lower its lineage's runsc", async ({ db }) => {
    const taskFiles = (runtime: string) => ({ 'task.toml': `version = "1.0"\n[environment]\nsandbox_runtime = "${runtime}"\n`, 'instruction.md': '# t\n' });
    const asksRunc = await seedEnvironment(db, { name: 'asks-runc', files: taskFiles('runc') });
    await findOrCreateLineage(db, asksRunc, { ...LINEAGE, sandboxRuntime: 'runsc' });
    const lineage = await db.lineage.findFirstOrThrow({ where: { seedVersionId: asksRunc } });
    expect((await getEnvironment(db, asksRunc))?.sandboxRuntime).toEqual({ runtime: 'runsc', source: 'lineage', lineageId: lineage.id, required: 'runc' });

    const asksRunsc = await seedEnvironment(db, { name: 'asks-runsc', files: taskFiles('runsc') });
    await findOrCreateLineage(db, asksRunsc, { ...LINEAGE, sandboxRuntime: 'runc' });
    expect((await getEnvironment(db, asksRunsc))?.sandboxRuntime).toMatchObject({ runtime: 'runsc', source: 'environment', required: 'runsc' });

    const runId = await seedRun(db, asksRunsc, { kind: 'oracle', verdict: 'passed', reward: 1 });
    await db.validatorRun.update({ where: { id: runId }, data: { sandboxRuntime: 'runsc' } });
    expect((await getEnvironment(db, asksRunsc))?.runs[0]?.sandboxRuntime).toBe('runsc');
  });

  dbTest('returns null for an unknown id', async ({ db }) => {
    expect(await getEnvironment(db, 'f'.repeat(64))).toBeNull();
  });
});

describe('getValidatorRunLog', () => {
  dbTest('returns the requested phase, or null for an unknown run', async ({ db }) => {
    const id = await seedEnvironment(db, { name: 'count-lines' });
    const runId = await seedRun(db, id, { kind: 'oracle', verdict: 'passed', reward: 1, agentLog: 'agent says hi\n' });

    expect(await getValidatorRunLog(db, runId, 'agent')).toBe('agent says hi\n');
    expect(await getValidatorRunLog(db, runId, 'verifier')).toBe('$ bash /tests/test.sh\n');
    expect(await getValidatorRunLog(db, 'missing', 'agent')).toBeNull();
  });
});
