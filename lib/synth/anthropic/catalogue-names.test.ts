// Claude names steps from the reference catalogue: the tool schema it receives lists
// the catalogue's names as enums, and an answer with a free name is mapped to the nearest catalogue
// name, the mapping shown, so D prices the step instead of charging it the smoothing floor.
// Against the local fake of the Messages API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../../test/env/task-fixtures.ts';
import { startFakeAnthropic, type FakeAnthropic, type FakeReply, type RecordedRequest } from '../../../test/fakes/anthropic-server.ts';
import { settingsFrom } from '../../config/settings.ts';
import { difficulty } from '../../difficulty/difficulty.ts';
import { tablePriors } from '../../difficulty/priors.ts';
import { REFERENCE_TABLE } from '../../difficulty/reference-priors.ts';
import type { Sequence } from '../../sequence/types.ts';
import type { ParentEnvironment } from '../types.ts';
import { CATALOGUE_SCENARIOS, CATALOGUE_SKILLS, nearestCatalogueName } from './catalogue-names.ts';
import { AnthropicSynthesiser } from './synthesiser.ts';
import { TOOLS } from './tools.ts';

type JsonSchema = { properties: Record<string, JsonSchema>; items: JsonSchema; enum?: string[] };
const stepProperties = (tool: string, path: string[]): Record<string, JsonSchema> => {
  let schema = TOOLS.find((t) => t.name === tool)!.input_schema as unknown as JsonSchema;
  for (const key of path) schema = schema.properties[key]!;
  return schema.items.properties;
};

describe('the tool schema Claude receives', () => {
  it('lists every catalogue scenario and skill as an enum, for extraction and for a plan', () => {
    for (const [tool, path] of [
      ['extract_sequence', ['steps']],
      ['propose_plan', ['child', 'steps']],
    ] as const) {
      const step = stepProperties(tool, [...path]);
      expect(step.scenario!.enum).toEqual([...CATALOGUE_SCENARIOS]);
      expect(step.skill!.enum).toEqual([...CATALOGUE_SKILLS]);
    }
    expect(CATALOGUE_SCENARIOS).toContain('payments-ledger');
    expect(CATALOGUE_SKILLS).toContain('join-tables');
    expect(CATALOGUE_SCENARIOS.length).toBe(REFERENCE_TABLE.scenarios.size);
  });
});

describe('nearestCatalogueName', () => {
  it('maps free names to the plainest nearest catalogue name, and refuses a name near none', () => {
    expect(nearestCatalogueName('scenario', 'payments ledger')).toBe('payments-ledger');
    expect(nearestCatalogueName('scenario', 'ledger of payments')).toBe('payments-ledger');
    expect(nearestCatalogueName('scenario', 'Web access log (CSV)')).toBe('web-access-log+csv');
    expect(nearestCatalogueName('skill', 'join tables with join')).toBe('join-tables');
    expect(nearestCatalogueName('skill', 'jq')).toBe('jq-query');
    expect(nearestCatalogueName('skill', 'awk-fields')).toBe('awk-fields');
    expect(nearestCatalogueName('scenario', 'quantum flux')).toBeNull();
  });
});

// What Claude answers when it ignores the enums: the free names the issue found.
const FREE: Sequence = {
  steps: [
    { id: 's1', scenario: 'payments ledger', skill: 'join tables with join', dependsOn: [], summary: 'join the ledger with the accounts' },
    { id: 's2', scenario: 'payments-ledger', skill: 'sqlite-sql', dependsOn: ['s1'], summary: 'total per account in SQL' },
  ],
};
const PARENT_SEQUENCE: Sequence = {
  steps: [
    { id: 's1', scenario: 'payments-ledger', skill: 'join-tables', dependsOn: [], summary: 'join' },
    { id: 's2', scenario: 'payments-ledger', skill: 'sqlite-sql', dependsOn: ['s1'], summary: 'sum' },
  ],
};
const PARENT: ParentEnvironment = { versionId: 'v1', sequence: PARENT_SEQUENCE, bundle: bundleOf(validTaskFiles()) };

function answer(request: RecordedRequest): FakeReply {
  if (request.forcedTool === 'extract_sequence') return { toolInput: FREE };
  if (request.forcedTool === 'propose_plan') {
    const child = {
      steps: [...PARENT_SEQUENCE.steps, { id: 's3', scenario: 'payments ledger', skill: 'date arithmetic', dependsOn: ['s2'], summary: 'days between' }],
    };
    return { toolInput: { edit: { axis: 'length', effort: 'low', inserted: ['s3'], replaced: [] }, child, rationale: 'a date step on the totals' } };
  }
  return { error: 400, message: `unexpected tool ${request.forcedTool}` };
}

describe('free names in answers from the fake Messages API', () => {
  let fake: FakeAnthropic;
  let synth: AnthropicSynthesiser;
  beforeEach(async () => {
    fake = await startFakeAnthropic({ respond: answer });
    synth = new AnthropicSynthesiser({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0 }, settingsFrom({}).anthropic);
  });
  afterEach(() => fake.close());

  it('extraction maps them to catalogue names, notes the mapping on the step, and D prices every step', async () => {
    const sequence = await synth.extractSequence(PARENT.bundle);
    expect(fake.violations()).toEqual([]);
    expect(sequence.steps.map((s) => [s.scenario, s.skill])).toEqual([
      ['payments-ledger', 'join-tables'],
      ['payments-ledger', 'sqlite-sql'],
    ]);
    expect(sequence.steps[0]!.summary).toBe(
      'join the ledger with the accounts (scenario mapped from "payments ledger", skill mapped from "join tables with join")',
    );
    expect(sequence.steps[1]!.summary).toBe('total per account in SQL');
    const d = difficulty(sequence, tablePriors(REFERENCE_TABLE));
    expect(d.smoothed).toEqual([]);
    expect(d.undescribed).toEqual([]);
  });

  it('a plan maps the new step and shows the mapping in its rationale', async () => {
    const plan = await synth.propose({ parent: PARENT, axis: 'length', effort: 'low', seed: 1, rubric: [], feedback: [], minGain: 0.05 });
    expect(plan.child.steps[2]).toMatchObject({ id: 's3', scenario: 'payments-ledger', skill: 'date-arithmetic' });
    expect(plan.rationale).toBe(
      'a date step on the totals\n\n(names mapped to the catalogue: s3.scenario "payments ledger" → payments-ledger; s3.skill "date arithmetic" → date-arithmetic)',
    );
    expect(plan.edit.inserted).toEqual(['s3']);
  });

  it('a name near no catalogue name gets a corrective turn naming it', async () => {
    fake.enqueue({ toolInput: { steps: [{ id: 's1', scenario: 'quantum flux', skill: 'awk-fields', dependsOn: [], summary: 'x' }] } });
    const sequence = await synth.extractSequence(PARENT.bundle);
    expect(sequence.steps[0]!.scenario).toBe('payments-ledger');
    expect(JSON.stringify(fake.requests[1]!.body.messages[2])).toContain('scenario \\"quantum flux\\" is no catalogue name');
  });
});
