import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../../test/env/task-fixtures.ts';
import { startFakeAnthropic, userText, type FakeAnthropic, type FakeReply, type RecordedRequest } from '../../../test/fakes/anthropic-server.ts';
import type { Sequence } from '../../sequence/types.ts';
import type { ParentEnvironment, Plan, RubricItemView } from '../types.ts';
import { AnthropicConfigError } from './config.ts';
import { AnthropicSynthesiser } from './synthesiser.ts';
import { ToolInputError } from './tool-client.ts';
import { settingsFrom } from '../../config/settings.ts';

const SEQUENCE: Sequence = {
  steps: [
    { id: 's1', scenario: 'web-access-log', skill: 'awk-fields', dependsOn: [], summary: 'extract IPs' },
    { id: 's2', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: ['s1'], summary: 'count IPs' },
  ],
};

const RUBRIC: RubricItemView[] = [
  {
    id: 'r-plan',
    key: 'plan-solvable',
    title: 'Plan is solvable',
    description: 'The plan can be implemented.',
    question: 'Is it?',
    check: null,
    appliesTo: 'plan',
  },
  {
    id: 'r-env',
    key: 'tests-strict',
    title: 'Tests are strict',
    description: 'No lenient verifier.',
    question: 'Are the tests strict?',
    check: null,
    appliesTo: 'environment',
  },
  {
    id: 'r-exec',
    key: 'no-solution-in-image',
    title: 'No solution in image',
    description: 'Dockerfile copies no solution.',
    question: null,
    check: 'true',
    appliesTo: 'environment',
  },
];

const PARENT: ParentEnvironment = {
  versionId: 'v1',
  sequence: SEQUENCE,
  bundle: bundleOf({
    ...validTaskFiles(),
    'environment/data.bin': Buffer.from([0, 1, 2, 3, 255]),
    'environment/big.log': 'line\n'.repeat(20_000),
    'envolve.json': '{"sequence":[]}',
  }),
};

const LONGER: Sequence = {
  steps: [...SEQUENCE.steps, { id: 's3', scenario: 'web-access-log', skill: 'jq-query', dependsOn: ['s2'], summary: 'write the report as JSON' }],
};

const PLAN: Plan = { edit: { axis: 'length', effort: 'low', inserted: ['s3'], replaced: [] }, child: LONGER, rationale: 'longer chain' };

function validAnswer(request: RecordedRequest): FakeReply {
  switch (request.forcedTool) {
    case 'extract_sequence':
      return { toolInput: SEQUENCE };
    case 'propose_plan':
      return { toolInput: { edit: PLAN.edit, child: LONGER, rationale: 'longer chain' } };
    case 'review_plan':
      return { toolInput: { approved: true, reasons: [], items: [{ itemId: 'r-plan', verdict: 'passed', reason: 'implementable' }] } };
    case 'write_residual':
      return {
        toolInput: {
          changes: [
            { op: 'modify', path: 'instruction.md', content: 'Write the report.\n' },
            { op: 'add', path: 'environment/extra.txt', content: 'extra\n' },
            { op: 'modify', path: 'solution/solve.sh', content: '#!/bin/bash\necho report\n' },
            { op: 'delete', path: 'environment/data.bin' },
          ],
          notes: 'added the JSON step',
        },
      };
    case 'judge_rubric_item':
      return { toolInput: { verdict: userText(request).includes('tests-strict') ? 'failed' : 'passed', explanation: 'tests/test.sh line 2' } };
    default:
      return { error: 400, message: `unexpected tool ${request.forcedTool}` };
  }
}

function proposeInput() {
  return { parent: PARENT, axis: 'length' as const, effort: 'low' as const, seed: 7, rubric: RUBRIC, feedback: [], minGain: 0.05 };
}

describe('AnthropicSynthesiser against the fake Messages API', () => {
  let fake: FakeAnthropic;
  let synth: AnthropicSynthesiser;
  beforeEach(async () => {
    fake = await startFakeAnthropic({ respond: validAnswer });
    synth = new AnthropicSynthesiser({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0, rubric: RUBRIC }, settingsFrom({}).anthropic);
  });
  afterEach(() => fake.close());

  it('needs an API key', () => {
    expect(() => new AnthropicSynthesiser({}, settingsFrom({}).anthropic)).toThrow(AnthropicConfigError);
    expect(() => new AnthropicSynthesiser({}, settingsFrom({}).anthropic)).toThrow(/ANTHROPIC_API_KEY/);
  });

  it('takes model, max tokens and base URL from the environment', async () => {
    const fromEnv = new AnthropicSynthesiser(
      {},
      settingsFrom({
        ANTHROPIC_API_KEY: 'env-key',
        ANTHROPIC_BASE_URL: fake.url,
        ENVOLVE_ANTHROPIC_MODEL: 'claude-env-model',
        ENVOLVE_ANTHROPIC_MAX_TOKENS: '1234',
      }).anthropic,
    );
    await fromEnv.extractSequence(PARENT.bundle);
    expect(fake.requests[0]!.body.model).toBe('claude-env-model');
    expect(fake.requests[0]!.body.max_tokens).toBe(1234);
    expect(fake.requests[0]!.headers['authorization']).toBe('Bearer env-key');
    expect(fromEnv.model).toBe('claude-env-model');
  });

  it('extracts a sequence through a forced extract_sequence call with the cached prefix', async () => {
    expect(await synth.extractSequence(PARENT.bundle)).toEqual(SEQUENCE);
    expect(fake.violations()).toEqual([]);
    const { body } = fake.requests[0]!;
    expect(body.tool_choice).toMatchObject({ type: 'tool', name: 'extract_sequence' });
    expect((body.tools as Tool[]).map((t) => t.name)).toEqual([
      'extract_sequence',
      'propose_plan',
      'review_plan',
      'write_residual',
      'judge_rubric_item',
      'estimate_prior',
    ]);
    for (const tool of body.tools!) expect(tool).toMatchObject({ input_schema: { type: 'object' } });
    const system = body.system as { text: string; cache_control?: unknown }[];
    expect(system.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(system[1]!.text).toContain('plan-solvable');
    // The task's files are the prefix's last cached block; the user message has no file in it.
    expect(userText(fake.requests[0]!)).not.toContain('<file path=');
    const text = system.at(-1)!.text;
    expect(text).toContain('<file path="tests/test.sh"');
    expect(text).toMatch(/environment\/data\.bin.*\(binary, 5 B, sha256 [0-9a-f]{64}/);
    expect(text).toMatch(/environment\/big\.log.*too large to show in full/);
    expect(text).not.toContain('envolve.json');
  });

  it('proposes a plan, sends the same prefix bytes as other roles, and reads the cache on the second call', async () => {
    await synth.extractSequence(PARENT.bundle);
    // The rubric arrives in another order: the catalogue is sorted, so the bytes do not change.
    const plan = await synth.propose({ ...proposeInput(), rubric: [...RUBRIC].reverse() });
    expect(plan).toEqual(PLAN);
    const [first, second] = fake.requests;
    const prefix = (r: RecordedRequest) => JSON.stringify(r.body.tools) + JSON.stringify(r.body.system);
    expect(prefix(second!)).toBe(prefix(first!));
    expect(second!.body.tool_choice).toMatchObject({ name: 'propose_plan' });
    const [extractCall, proposeCall] = synth.calls();
    expect(extractCall!.cacheCreationInputTokens).toBeGreaterThan(0);
    expect(extractCall!.cacheReadInputTokens).toBe(0);
    expect(proposeCall!.cacheReadInputTokens).toBe(extractCall!.cacheCreationInputTokens);
    const totals = synth.usage();
    expect(totals.calls).toBe(2);
    expect(totals.cacheReadInputTokens).toBe(proposeCall!.cacheReadInputTokens);
    expect(totals.inputTokens).toBe(extractCall!.inputTokens + proposeCall!.inputTokens);
    expect(totals.outputTokens).toBeGreaterThan(0);
  });

  it('reviews a plan with one verdict per plan rubric item', async () => {
    const review = await synth.reviewPlan({ parent: PARENT, plan: PLAN, rubric: RUBRIC });
    expect(review).toEqual({ approved: true, reasons: [], items: [{ itemId: 'r-plan', verdict: 'passed', reason: 'implementable' }] });
    expect(userText(fake.requests[0]!)).toContain('- r-plan (plan-solvable)');
  });

  it('never approves a plan that breaks the edit rules, whatever the model says', async () => {
    const twoSteps: Plan = { ...PLAN, child: { steps: [...LONGER.steps, { id: 's4', scenario: 'x', skill: 'y', dependsOn: ['s3'], summary: 'z' }] } };
    const review = await synth.reviewPlan({ parent: PARENT, plan: twoSteps, rubric: RUBRIC });
    expect(review.approved).toBe(false);
    expect(review.reasons.join(' ')).toMatch(/low effort changes exactly one step/);
  });

  it('writes the residual as file changes, keeping executable bits of modified files', async () => {
    const output = await synth.modify({ parent: PARENT, plan: PLAN, seed: 1, attempt: 1, feedback: ['oracle failed: exit 1'] });
    expect(output.sequence).toEqual(LONGER);
    expect(output.notes).toBe('added the JSON step');
    expect(output.residual.changes).toEqual([
      { op: 'modify', path: 'instruction.md', content: Buffer.from('Write the report.\n'), executable: false },
      { op: 'add', path: 'environment/extra.txt', content: Buffer.from('extra\n'), executable: false },
      { op: 'modify', path: 'solution/solve.sh', content: Buffer.from('#!/bin/bash\necho report\n'), executable: true },
      { op: 'delete', path: 'environment/data.bin' },
    ]);
    expect(userText(fake.requests[0]!)).toContain('oracle failed: exit 1');
  });

  it('judges LLM rubric items passed or failed with an explanation, and leaves question-less items unjudged', async () => {
    expect(await synth.judge({ bundle: PARENT.bundle, item: RUBRIC[0]! })).toEqual({ verdict: 'passed', explanation: 'tests/test.sh line 2' });
    expect(await synth.judge({ bundle: PARENT.bundle, item: RUBRIC[1]! })).toEqual({ verdict: 'failed', explanation: 'tests/test.sh line 2' });
    const unjudged = await synth.judge({ bundle: PARENT.bundle, item: RUBRIC[2]! });
    expect(unjudged.verdict).toBe('unjudged');
    expect(fake.requests).toHaveLength(2);
  });

  it('shares one cached block of task files between the proposer, the modifier and every judge of the same task', async () => {
    await synth.propose(proposeInput());
    await synth.modify({ parent: PARENT, plan: PLAN, seed: 1, attempt: 1, feedback: [] });
    await synth.judge({ bundle: PARENT.bundle, item: RUBRIC[0]! });
    await synth.judge({ bundle: PARENT.bundle, item: RUBRIC[1]! });
    const systems = fake.requests.map((r) => JSON.stringify(r.body.system));
    expect(new Set(systems).size).toBe(1);
    const [propose, ...later] = synth.calls();
    const prefixTokens = propose!.cacheCreationInputTokens;
    expect(prefixTokens).toBeGreaterThan(0);
    // Every later call reads the whole prefix, files included, from the cache.
    for (const call of later) expect(call.cacheReadInputTokens).toBe(prefixTokens);
  });
});

describe('AnthropicSynthesiser: invalid tool input', () => {
  let fake: FakeAnthropic;
  afterEach(() => fake.close());

  async function synthWith(replies: FakeReply[]) {
    fake = await startFakeAnthropic({ respond: validAnswer });
    fake.enqueue(...replies);
    return new AnthropicSynthesiser({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 }, settingsFrom({}).anthropic);
  }

  it('sends one corrective turn naming the problems, then accepts the corrected answer', async () => {
    const synth = await synthWith([{ toolInput: { edit: PLAN.edit, rationale: 'forgot the child' } }]);
    expect(await synth.propose(proposeInput())).toEqual(PLAN);
    expect(fake.violations()).toEqual([]);
    const correction = fake.requests[1]!.body.messages;
    expect(correction).toHaveLength(3);
    expect(correction[1]).toMatchObject({ role: 'assistant', content: [{ type: 'tool_use', name: 'propose_plan' }] });
    expect(correction[2]).toMatchObject({ role: 'user', content: [{ type: 'tool_result', is_error: true }] });
    expect(userText(fake.requests[1]!)).toMatch(/child: .*expected object/i);
  });

  it('fails clearly when the answer is still invalid after the corrective turn', async () => {
    const bad: FakeReply = { toolInput: { edit: { ...PLAN.edit, axis: 'skill' }, child: LONGER, rationale: 'r' } };
    const synth = await synthWith([bad, bad]);
    const error = await synth.propose(proposeInput()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInputError);
    expect((error as Error).message).toMatch(
      /propose_plan answer was still invalid after a corrective retry: edit.axis is "skill" but the requested axis is "length"/,
    );
    expect(fake.requests).toHaveLength(2);
  });

  it.each([
    ['../x', "'..' segment escapes the task directory"],
    ['/etc/passwd', 'absolute path'],
    ['envolve.json', "Envolve's own metadata"],
  ])('refuses a residual writing %s', async (path, reason) => {
    const escape: FakeReply = { toolInput: { changes: [{ op: 'add', path, content: 'x' }], notes: 'n' } };
    const synth = await synthWith([escape, escape]);
    const error = await synth.modify({ parent: PARENT, plan: PLAN, seed: 1, attempt: 1, feedback: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInputError);
    expect((error as Error).message).toContain(reason);
  });

  it('refuses to rewrite a file the model saw only by digest', async () => {
    const rewrite: FakeReply = { toolInput: { changes: [{ op: 'modify', path: 'environment/data.bin', content: 'text' }], notes: 'n' } };
    const synth = await synthWith([rewrite, rewrite]);
    const error = await synth.modify({ parent: PARENT, plan: PLAN, seed: 1, attempt: 1, feedback: [] }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/shown only by size and digest/);
  });

  it('reports an answer cut off at max_tokens', async () => {
    const synth = await synthWith([{ toolInput: {}, stopReason: 'max_tokens' }]);
    await expect(synth.extractSequence(PARENT.bundle)).rejects.toThrow(/cut off at max_tokens/);
  });
});
