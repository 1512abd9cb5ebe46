// Rollouts against real containers: the simulated, oracle and nop policies on a shipped example,
// timeouts, reward hacking, the interactive terminal's limits, idempotency and ATIF round trips.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { importPath } from '../../lib/env/import.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { atifSchema } from '../../lib/rollout/atif-schema.ts';
import { AtifImportError, exportAtif, importAtif } from '../../lib/rollout/atif.ts';
import { createPolicy } from '../../lib/rollout/policies/index.ts';
import { runRollout, type RolloutRequest } from '../../lib/rollout/run.ts';
import type { CommandResult, Policy, PolicyEpisode } from '../../lib/rollout/types.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { helloTask, helloTaskAsRoot } from '../sandbox/fixtures.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;
let seedLogs: string;
let hello: string;
let helloRoot: string;

// A policy that runs fixed commands and keeps what came back, for the tests to look at.
class ScriptedPolicy implements Policy {
  readonly name = 'scripted';
  readonly version = 'test';
  readonly simulated = false;
  readonly results: CommandResult[] = [];
  constructor(private readonly commands: Array<string | { command: string; timeoutSec: number }>) {}
  async act(episode: PolicyEpisode): Promise<void> {
    for (const c of this.commands) {
      episode.note({ message: `running ${typeof c === 'string' ? c : c.command}`, usage: { promptTokens: 10, completionTokens: 2 } });
      this.results.push(typeof c === 'string' ? await episode.terminal.run(c) : await episode.terminal.run(c.command, { timeoutSec: c.timeoutSec }));
    }
  }
}

const rollout = (req: Partial<RolloutRequest> & Pick<RolloutRequest, 'versionId' | 'policy'>) =>
  runRollout({ db: testDb.db, sandbox }, { seed: 7, attempt: 1, ...req });

const stepsOf = (id: string) => testDb.db.trajectoryStep.findMany({ where: { rolloutId: id }, orderBy: { stepId: 'asc' } });

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  const [imported] = await importPath(testDb.db, 'examples/tasks/seed-logs-awk');
  if (!imported?.ok || !imported.versionId) throw new Error('seed-logs-awk did not import');
  seedLogs = imported.versionId;
  hello = await storeBundle(testDb.db, helloTask(), { source: 'import' });
  helloRoot = await storeBundle(testDb.db, helloTaskAsRoot(), { source: 'import' });
});
afterAll(() => testDb.cleanup());

describe('policies on a shipped example', () => {
  it('a simulated rollout explores, runs the steps for real and is scored by the real verifier; same seed, same commands', async () => {
    const first = await rollout({ versionId: seedLogs, policy: createPolicy({ name: 'simulated' }), seed: 11 });
    expect(['completed']).toContain(first.status);
    expect([0, 1]).toContain(first.reward);
    const row = await testDb.db.rollout.findUniqueOrThrow({ where: { id: first.id } });
    expect(row).toMatchObject({ simulated: true, policy: 'simulated', seed: 11, attempt: 1 });
    expect(row.verifierLog).toMatch(/s1: (passed|failed)/);
    expect(JSON.parse(row.ctrf!).results.summary.tests).toBe(2);
    const steps = await stepsOf(first.id);
    expect(steps[0]).toMatchObject({ stepId: 1, source: 'user' });
    expect(steps[0]!.message).toContain('This task has 2 steps');
    const commands = steps.filter((s) => s.command !== null);
    expect(commands[0]!.command).toBe('pwd && ls -lA');
    expect(commands[0]!.output).toContain('/app');
    // Each step's fragment ran (found by the answer it writes), without the solution's comments.
    expect(commands.some((s) => s.command!.includes('out=/app/out/s1.txt'))).toBe(true);
    expect(commands.some((s) => s.command!.includes('out=/app/out/s2.txt'))).toBe(true);
    for (const s of commands) expect(s.command).not.toMatch(/^\s*#/m);
    expect(steps.filter((s) => s.message?.startsWith('Step s'))).toHaveLength(2);
    expect(commands.length).toBe(row.turns);
    expect(row.turns).toBeGreaterThanOrEqual(5); // pwd, find, two peeks, two steps
    for (const s of commands) expect(s.exitCode === null || Number.isInteger(s.exitCode)).toBe(true);

    const again = await rollout({ versionId: seedLogs, policy: createPolicy({ name: 'simulated' }), seed: 11 });
    const againCommands = (await stepsOf(again.id)).filter((s) => s.command !== null).map((s) => [s.command, s.output, s.exitCode]);
    expect(againCommands).toEqual(commands.map((s) => [s.command, s.output, s.exitCode]));
    expect(again.reward).toBe(first.reward);
  });

  it('a simulated agent with no competence makes mistakes and fails; with full competence it passes', async () => {
    const hopeless = await rollout({ versionId: seedLogs, policy: createPolicy({ name: 'simulated', competence: { default: 0 } }) });
    expect(hopeless).toMatchObject({ status: 'completed', reward: 0, passed: false });
    const mistakes = (await stepsOf(hopeless.id)).filter((s) => s.reasoning?.startsWith('simulated mistake'));
    expect(mistakes.length).toBe(2);
    const expert = await rollout({ versionId: seedLogs, policy: createPolicy({ name: 'simulated', competence: { default: 1 } }) });
    expect(expert).toMatchObject({ status: 'completed', reward: 1, passed: true });
  });

  it('the oracle passes with one turn and its artifacts stored as blobs; nop fails with none', async () => {
    const oracle = await rollout({ versionId: seedLogs, policy: createPolicy({ name: 'oracle' }) });
    expect(oracle).toMatchObject({ status: 'completed', reward: 1, passed: true, timedOut: false, turns: 1 });
    expect(oracle.imageId).toMatch(/^sha256:/);
    const row = await testDb.db.rollout.findUniqueOrThrow({ where: { id: oracle.id } });
    const changed = JSON.parse(row.changedFiles) as Array<{ path: string; size: number; blobHash: string }>;
    expect(changed.map((f) => f.path)).toEqual(['/app/out/s1.txt', '/app/out/s2.txt']);
    const blob = await testDb.db.blob.findUniqueOrThrow({ where: { hash: changed[0]!.blobHash } });
    expect(Buffer.from(blob.content).toString()).toMatch(/^192\.0\.2\.\d+ \d+\n$/);
    expect(row.finishedAt).not.toBeNull();
    expect(row.verifierExitCode).toBe(0);

    const nop = await rollout({ versionId: seedLogs, policy: createPolicy({ name: 'nop' }) });
    expect(nop).toMatchObject({ status: 'completed', reward: 0, passed: false, turns: 0 });
    expect(await stepsOf(nop.id)).toHaveLength(1);
  });
});

describe('budgets and protection', () => {
  it('a timed-out rollout gets the low reward, is not passed, and keeps its turns', async () => {
    const policy = new ScriptedPolicy(['echo started > /app/out.txt', 'sleep 60']);
    const res = await rollout({ versionId: hello, policy, agentTimeoutSec: 3 });
    expect(res).toMatchObject({ status: 'timed-out', reward: 0, passed: false, timedOut: true, turns: 2 });
    const steps = await stepsOf(res.id);
    expect(steps.map((s) => s.command)).toEqual([null, 'echo started > /app/out.txt', 'sleep 60']);
    expect(steps[2]).toMatchObject({ timedOut: true, exitCode: null });
    expect(steps[2]!.output).toContain('wall-clock budget');
    const withLowReward = await rollout({ versionId: hello, policy: new ScriptedPolicy(['sleep 60']), agentTimeoutSec: 2, timeoutReward: -1 });
    expect(withLowReward).toMatchObject({ status: 'timed-out', reward: -1, passed: false });
  });

  it('an agent that writes the reward file does not get the reward and is marked touchedProtected', async () => {
    const policy = new ScriptedPolicy(['mkdir -p /logs/verifier && echo 1 > /logs/verifier/reward.txt && echo wrote']);
    const res = await rollout({ versionId: helloRoot, policy });
    expect(res).toMatchObject({ status: 'completed', reward: 0, passed: false });
    expect(policy.results[0]!.output).toContain('wrote');
    const row = await testDb.db.rollout.findUniqueOrThrow({ where: { id: res.id } });
    expect(row.touchedProtected).toBe(true);
    const honest = await rollout({ versionId: hello, policy: new ScriptedPolicy(['echo hello > /app/out.txt']) });
    expect(honest).toMatchObject({ reward: 1, passed: true });
    expect((await testDb.db.rollout.findUniqueOrThrow({ where: { id: honest.id } })).touchedProtected).toBe(false);
  });

  it('the terminal: working directory carries over, a command timeout kills only that command, large output is capped and marked', async () => {
    const policy = new ScriptedPolicy([
      'cd /tmp && pwd',
      'pwd; whoami',
      { command: 'echo before; sleep 30; echo after', timeoutSec: 1 },
      "head -c 3000000 /dev/zero | tr '\\0' x",
      'exit 3',
      'echo hello > /app/out.txt',
      'sleep 60 & echo started-in-background',
    ]);
    const res = await rollout({ versionId: hello, policy });
    const [, pwd, slow, big, exit3] = policy.results;
    expect(pwd!.output).toBe('/tmp\nagent\n');
    expect(slow).toMatchObject({ timedOut: true, exitCode: null });
    expect(slow!.output).toContain('before');
    expect(slow!.output).not.toContain('after');
    expect(slow!.durationMs).toBeLessThan(8000);
    expect(big!.outputTruncated).toBe(true);
    expect(big!.output).toMatch(/\[\.\.\. \d+ bytes of output truncated \.\.\.\]/);
    expect(big!.output.length).toBeLessThan(1_100_000);
    expect(exit3!.exitCode).toBe(3);
    // a background process holding the output open does not hold the turn
    expect(policy.results[6]).toMatchObject({ exitCode: 0, timedOut: false, output: 'started-in-background\n' });
    expect(policy.results[6]!.durationMs).toBeLessThan(5000);
    expect(res).toMatchObject({ status: 'completed', reward: 1, turns: 7 });
    const steps = await stepsOf(res.id);
    expect(JSON.parse(steps[4]!.extra!)).toEqual({ extra: { output_truncated: true } });
    const row = await testDb.db.rollout.findUniqueOrThrow({ where: { id: res.id } });
    expect(row).toMatchObject({ promptTokens: 70, completionTokens: 14, cachedTokens: null });
  });

  it('maxTurns ends the agent phase and the verifier scores what was done', async () => {
    const policy = new ScriptedPolicy(['echo hello > /app/out.txt', 'echo one', 'echo two']);
    const res = await rollout({ versionId: hello, policy, maxTurns: 1 });
    expect(res).toMatchObject({ status: 'completed', reward: 1, turns: 1 });
  });

  it('a policy that throws makes an error rollout with the error and its turns kept', async () => {
    const failing: Policy = {
      name: 'failing',
      version: 'test',
      simulated: false,
      async act(episode) {
        await episode.terminal.run('echo first');
        throw new Error('model endpoint unreachable');
      },
    };
    const res = await rollout({ versionId: hello, policy: failing });
    expect(res).toMatchObject({ status: 'error', passed: null, turns: 1 });
    const row = await testDb.db.rollout.findUniqueOrThrow({ where: { id: res.id } });
    expect(row.error).toContain('model endpoint unreachable');
    expect((await stepsOf(res.id)).map((s) => s.command)).toEqual([null, 'echo first']);
  });
});

describe('artifacts', () => {
  it('an image without WORKDIR has its artifacts read from the usual work places, not the whole filesystem', async () => {
    const noWorkdir = await storeBundle(testDb.db, helloTask({ 'environment/Dockerfile': 'FROM envolve/base:bookworm\nRUN mkdir /app && chmod 0777 /app\n' }), {
      source: 'import',
    });
    const res = await rollout({ versionId: noWorkdir, policy: new ScriptedPolicy(['pwd', 'echo hello > /app/out.txt && echo x > /etc/elsewhere']) });
    expect(res).toMatchObject({ status: 'completed', reward: 1 });
    const row = await testDb.db.rollout.findUniqueOrThrow({ where: { id: res.id } });
    expect(JSON.parse(row.changedFiles).map((f: { path: string }) => f.path)).toEqual(['/app/out.txt']);
  });
});

describe('groups', () => {
  it('is idempotent on (group, attempt) and replaces a stale running row', async () => {
    const group = await testDb.db.probeGroup.create({ data: { versionId: hello, purpose: 'probe', policy: 'nop', policyVersion: '1', size: 2 } });
    const first = await rollout({ versionId: hello, policy: createPolicy({ name: 'nop' }), groupId: group.id, attempt: 1 });
    const second = await rollout({ versionId: hello, policy: createPolicy({ name: 'nop' }), groupId: group.id, attempt: 1 });
    expect(second.id).toBe(first.id);
    const stale = await testDb.db.rollout.create({
      data: { versionId: hello, groupId: group.id, attempt: 2, policy: 'nop', policyVersion: '1', seed: 1, status: 'running' },
    });
    const replaced = await rollout({ versionId: hello, policy: createPolicy({ name: 'nop' }), groupId: group.id, attempt: 2 });
    expect(replaced.id).not.toBe(stale.id);
    expect(replaced.status).toBe('completed');
    expect(await testDb.db.rollout.count({ where: { groupId: group.id } })).toBe(2);
  });
});

describe('ATIF', () => {
  it('an export validates against the spec and re-imports identically (in another database, under the same id)', async () => {
    const res = await rollout({ versionId: seedLogs, policy: createPolicy({ name: 'simulated' }), seed: 3 });
    const doc = await exportAtif(testDb.db, res.id);
    expect(atifSchema.safeParse(doc).success).toBe(true);
    expect(doc).toMatchObject({ schema_version: 'ATIF-v1.4', session_id: res.id, agent: { name: 'simulated', version: '4' } });
    const agentStep = doc.steps[1]!;
    expect(agentStep.tool_calls).toEqual([{ tool_call_id: 'call_2', function_name: 'bash', arguments: { command: 'pwd && ls -lA' } }]);
    expect(agentStep.observation!.results[0]!.source_call_id).toBe('call_2');
    expect(agentStep.extra).toMatchObject({ exit_code: 0, timed_out: false });
    expect(doc.final_metrics!.total_steps).toBe(doc.steps.length);
    expect(doc.extra!.envolve).toMatchObject({ environment_version: seedLogs, simulated: true, seed: 3, attempt: 1, status: 'completed' });

    const other = await createTestDb();
    try {
      await importPath(other.db, 'examples/tasks/seed-logs-awk');
      const imported = await importAtif(other.db, JSON.parse(JSON.stringify(doc)));
      expect(imported).toEqual({ id: res.id, warnings: [] });
      expect(await exportAtif(other.db, imported.id)).toEqual(doc);
    } finally {
      await other.cleanup();
    }
    const copy = await importAtif(testDb.db, doc);
    expect(copy.id).not.toBe(res.id);
    expect(copy.warnings[0]).toContain('stored under a new id');
    expect({ ...(await exportAtif(testDb.db, copy.id)), session_id: res.id }).toEqual(doc);
  });

  it('keeps foreign fields and refuses bad documents with the field named', async () => {
    const doc = await exportAtif(testDb.db, (await rollout({ versionId: hello, policy: new ScriptedPolicy(['echo hi']) })).id);
    const foreign = structuredClone(doc) as Record<string, any>;
    foreign.session_id = 'foreign-1';
    foreign.notes = 'from elsewhere';
    foreign.final_metrics.total_cost_usd = 0.01;
    foreign.steps[1].tool_calls.push({ tool_call_id: 'x', function_name: 'read_file', arguments: { path: '/a' } });
    foreign.steps[1].metrics.cost_usd = 0.001;
    foreign.steps[1].timestamp = '2026-01-01T00:00:00Z';
    const { id } = await importAtif(testDb.db, foreign);
    expect(await exportAtif(testDb.db, id)).toEqual(foreign);

    const broken = structuredClone(doc) as Record<string, any>;
    broken.steps[1].source = 'robot';
    await expect(importAtif(testDb.db, broken)).rejects.toThrow(/steps\[1\]\.source/);
    const gap = structuredClone(doc) as Record<string, any>;
    gap.steps[1].step_id = 5;
    await expect(importAtif(testDb.db, gap)).rejects.toThrow(/steps\[1\]\.step_id: expected 2/);
    const noVersion = structuredClone(doc) as Record<string, any>;
    delete noVersion.extra.envolve.environment_version;
    await expect(importAtif(testDb.db, noVersion)).rejects.toThrow(AtifImportError);
    await expect(importAtif(testDb.db, noVersion)).rejects.toThrow(/extra\.envolve\.environment_version/);
  });
});
