// Both LLM policies through the real rollout runner and a real container, against fake model
// servers whose scripted "model" reads the observations it is sent and answers from them: it
// lists the data, reads the log, works out the answer, writes it. Every command runs in the
// sandbox and the example task's own verifier scores the result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { importPath } from '../../lib/env/import.ts';
import { AnthropicPolicy } from '../../lib/rollout/policies/anthropic.ts';
import { OpenAiCompatiblePolicy } from '../../lib/rollout/policies/openai.ts';
import { runRollout } from '../../lib/rollout/run.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { startFakeAnthropic, type FakeReply, type RecordedRequest } from '../fakes/anthropic-server.ts';
import { startFakeOpenAi, type FakeChatReply, type RecordedChatRequest } from '../fakes/openai-server.ts';
import { settingsFrom } from '../../lib/config/settings.ts';

let testDb: TestDb;
let versionId: string;
const sandbox = new DockerSandbox();

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  const [imported] = await importPath(testDb.db, new URL('../../examples/tasks/seed-logs-awk', import.meta.url).pathname);
  if (!imported?.ok || !imported.versionId) throw new Error(`import failed: ${imported?.errors.join('; ')}`);
  versionId = imported.versionId;
});
afterAll(() => testDb?.cleanup());

// What the model "concludes" from the output it was shown, as a person reading it would, with the
// task's rules: liveness probes are not traffic, and only host `bastion`'s events count.
function busiestClient(accessLog: string): string {
  const counts = new Map<string, number>();
  for (const line of accessLog.split('\n')) {
    if (line.includes('"kube-probe/')) continue;
    const ip = /^(\d+\.\d+\.\d+\.\d+) /.exec(line)?.[1];
    if (ip) counts.set(ip, (counts.get(ip) ?? 0) + 1);
  }
  const [ip, count] = [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))[0]!;
  return `${ip} ${count}`;
}

function acceptedPasswordPortSum(authLog: string): number {
  return [...authLog.matchAll(/^\S+ bastion sshd\[\d+\]: Accepted-password for \S+ from \S+ port (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

function lastToolResult(request: RecordedRequest): string {
  const last = request.body.messages[request.body.messages.length - 1]!;
  const blocks: readonly { type: string; content?: unknown }[] = Array.isArray(last.content) ? last.content : [];
  return String(blocks.find((b) => b.type === 'tool_result')?.content ?? '');
}

async function storedSteps(rolloutId: string) {
  return testDb.db.trajectoryStep.findMany({ where: { rolloutId }, orderBy: { stepId: 'asc' } });
}

describe('LLM policies in a real sandbox', () => {
  it('Claude (fake server) explores, reads the data, writes both answers and gets reward 1 from the real verifier', async () => {
    const claude = (request: RecordedRequest): FakeReply => {
      const bash = (text: string, command: string): FakeReply => ({ content: [{ text }, { toolUse: { name: 'bash', input: { command } } }] });
      switch (request.index) {
        case 0:
          return bash('Let me see the data.', 'pwd && ls -R data');
        case 1:
          return bash('Now the access log.', 'cat data/s1/access.log');
        case 2: {
          const answer = busiestClient(lastToolResult(request));
          const ip = answer.split(' ')[0];
          return bash(`The busiest client is ${answer}.`, `mkdir -p out && echo '${answer}' > out/s1.txt && cat data/s2/${ip}/auth.log`);
        }
        case 3:
          return bash(
            'Summing the accepted-password ports.',
            `echo ${acceptedPasswordPortSum(lastToolResult(request))} > out/s2.txt && cat out/s1.txt out/s2.txt`,
          );
        default:
          return { text: 'Both answers are written.' };
      }
    };
    const fake = await startFakeAnthropic({ respond: claude });
    try {
      const policy = new AnthropicPolicy(
        { maxRetries: 0 },
        settingsFrom({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, ENVOLVE_POLICY_MODEL: 'claude-fake' }).anthropic,
      );
      const summary = await runRollout({ db: testDb.db, sandbox }, { versionId, policy, seed: 7, attempt: 1 });

      expect(fake.violations()).toEqual([]);
      expect(summary).toMatchObject({ status: 'completed', reward: 1, passed: true, timedOut: false, turns: 4 });
      expect(summary.imageId).toMatch(/^sha256:/);
      const steps = await storedSteps(summary.id);
      expect(steps.map((s) => s.source)).toEqual(['user', 'agent', 'agent', 'agent', 'agent', 'agent']);
      expect(steps[1]).toMatchObject({ message: 'Let me see the data.', command: 'pwd && ls -R data', exitCode: 0 });
      expect(steps[1]!.output).toMatch(/^\/app\n/); // the container's WORKDIR, as the system prompt said
      expect(steps[2]!.output).toContain('"GET /'); // the real log came back from the container
      expect(steps[5]).toMatchObject({ message: 'Both answers are written.', command: null });
      for (const step of steps.slice(1)) expect(step.promptTokens).toBeGreaterThan(0);
      const row = await testDb.db.rollout.findUniqueOrThrow({ where: { id: summary.id } });
      expect(row).toMatchObject({ policy: 'anthropic', policyVersion: policy.version, model: 'claude-fake', simulated: false, touchedProtected: false });
      expect(row.promptTokens).toBe(steps.reduce((sum, s) => sum + (s.promptTokens ?? 0), 0));
    } finally {
      await fake.close();
    }
  });

  it('an OpenAI-compatible server’s several tool calls per message run in order in the container; a wrong answer scores 0', async () => {
    const model = (request: RecordedChatRequest): FakeChatReply => {
      const results = request.body.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
      switch (request.index) {
        case 0:
          return {
            content: 'Exploring.',
            toolCalls: [
              { name: 'bash', arguments: { command: 'ls data/s1' } },
              { name: 'bash', arguments: { command: 'cat data/s1/access.log' } },
            ],
          };
        case 1: {
          // Right for s1, then off by one for s2: the verifier must notice.
          const answer = busiestClient(results[1]!);
          return {
            toolCalls: [
              { name: 'bash', arguments: { command: `mkdir -p out && echo '${answer}' > out/s1.txt` } },
              { name: 'bash', arguments: { command: `cat data/s2/${answer.split(' ')[0]}/auth.log` } },
            ],
          };
        }
        case 2:
          return { toolCalls: [{ name: 'bash', arguments: { command: `echo ${acceptedPasswordPortSum(results[3]!) + 1} > out/s2.txt` } }] };
        default:
          return { content: 'Done.' };
      }
    };
    const fake = await startFakeOpenAi({ respond: model });
    try {
      const policy = new OpenAiCompatiblePolicy(
        { maxRetries: 0 },
        settingsFrom({ ENVOLVE_OPENAI_BASE_URL: fake.url, ENVOLVE_OPENAI_MODEL: 'policy-under-training' }).openai,
      );
      const summary = await runRollout({ db: testDb.db, sandbox }, { versionId, policy, seed: 11, attempt: 2 });

      expect(fake.violations()).toEqual([]);
      expect(summary).toMatchObject({ status: 'completed', reward: 0, passed: false, turns: 5 });
      const steps = await storedSteps(summary.id);
      expect(steps.filter((s) => s.command !== null).map((s) => s.command)).toEqual([
        'ls data/s1',
        'cat data/s1/access.log',
        expect.stringMatching(/^mkdir -p out && echo '[\d.]+ \d+' > out\/s1\.txt$/),
        expect.stringMatching(/^cat data\/s2\//),
        expect.stringMatching(/^echo \d+ > out\/s2\.txt$/),
      ]);
      expect(fake.requests[0]!.body.seed).toBe(11);
      const row = await testDb.db.rollout.findUniqueOrThrow({ where: { id: summary.id } });
      expect(row.verifierLog).toMatch(/s1: passed/);
      expect(row.verifierLog).toMatch(/s2: failed/);
      expect(row).toMatchObject({ policy: 'openai', model: 'policy-under-training', attempt: 2 });
    } finally {
      await fake.close();
    }
  });

  it('a model that stalls past the wall-clock budget gives a timed-out rollout, scored with the low reward, its turns kept', async () => {
    // One command, then the server never answers again.
    const fake = await startFakeAnthropic({
      respond: (request) =>
        request.index === 0 ? { content: [{ toolUse: { name: 'bash', input: { command: 'ls data' } } }] } : new Promise<FakeReply>(() => {}),
    });
    try {
      const policy = new AnthropicPolicy({ maxRetries: 0 }, settingsFrom({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url }).anthropic);
      // The server never answers the second request: the rollout ends only because the budget did.
      const summary = await runRollout({ db: testDb.db, sandbox }, { versionId, policy, seed: 1, attempt: 3, agentTimeoutSec: 3 });
      expect(summary).toMatchObject({ status: 'timed-out', timedOut: true, reward: 0, passed: false, turns: 1 });
      expect(fake.requests).toHaveLength(2);
    } finally {
      await fake.close();
    }
  });
});
