import { afterEach, describe, expect, it } from 'vitest';
import { answerByTool, startFakeAnthropic, type FakeAnthropic } from './anthropic-server.ts';

const LONG = 'x'.repeat(6000); // ~1500 tokens: above the fake's minimum cacheable prefix

function validBody(system = LONG): Record<string, unknown> {
  return {
    model: 'claude-test',
    max_tokens: 100,
    tools: [{ name: 'answer', input_schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } }],
    tool_choice: { type: 'tool', name: 'answer' },
    system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: 'hi' }],
  };
}

const HEADERS = { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };

async function post(fake: FakeAnthropic, body: unknown, headers: Record<string, string> = HEADERS): Promise<Response> {
  return fetch(`${fake.url}/v1/messages`, { method: 'POST', headers, body: JSON.stringify(body) });
}

describe('fake Anthropic Messages API', () => {
  let fake: FakeAnthropic;
  afterEach(() => fake.close());

  it('answers a well-formed request with a realistic tool_use message', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ toolInput: { a: 'yes' } }) });
    const response = await post(fake, validBody());
    expect(response.status).toBe(200);
    const message = await response.json();
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', name: 'answer', input: { a: 'yes' } }],
    });
    expect(message.id).toMatch(/^msg_/);
    expect(message.content[0].id).toMatch(/^toolu_/);
    expect(fake.violations()).toEqual([]);
    expect(fake.requests[0]!.forcedTool).toBe('answer');
  });

  it('reports cache creation on the first call and cache reads when the prefix repeats', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ toolInput: { a: 'yes' } }) });
    const first = await (await post(fake, validBody())).json();
    const second = await (await post(fake, { ...validBody(), messages: [{ role: 'user', content: 'something else' }] })).json();
    const changed = await (await post(fake, validBody(`${LONG}!`))).json();
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1000);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect(changed.usage.cache_read_input_tokens).toBe(0);
  });

  it('does not cache a prefix below the minimum length', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ toolInput: { a: 'yes' } }) });
    await post(fake, validBody('short'));
    const again = await (await post(fake, validBody('short'))).json();
    expect(again.usage.cache_read_input_tokens).toBe(0);
    expect(again.usage.cache_creation_input_tokens).toBe(0);
  });

  it('refuses malformed requests with a 400 and records every violation', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ toolInput: {} }) });
    const response = await post(
      fake,
      {
        max_tokens: 0,
        tools: [{ name: 'answer' }, { name: 'bad', input_schema: { type: 'object', properties: { a: { type: 'strin' } }, required: ['b'] } }],
        tool_choice: { type: 'tool', name: 'missing' },
        system: 'plain string',
        messages: [],
      },
      { 'content-type': 'application/json' },
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.type).toBe('invalid_request_error');
    const violations = fake.violations().join('\n');
    for (const expected of [
      'missing model',
      'missing or invalid max_tokens',
      'missing messages',
      'tools[0] has no input_schema',
      'tools[1].input_schema.properties.a.type "strin" is not a JSON Schema type',
      'tools[1].input_schema.required names unknown property "b"',
      'tool_choice names unknown tool "missing"',
      'missing x-api-key',
      'missing anthropic-version header',
      'no cache_control marker',
    ]) {
      expect(violations).toContain(expected);
    }
  });

  it('checks that a tool_use is answered by a tool_result', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ toolInput: { a: 'yes' } }) });
    const body = {
      ...validBody(),
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'answer', input: {} }] },
        { role: 'user', content: 'no result here' },
      ],
    };
    expect((await post(fake, body)).status).toBe(400);
    expect(fake.violations()[0]).toContain('tool_use toolu_1');
  });

  it('serves the queue before the responder and injects errors with retry-after', async () => {
    fake = await startFakeAnthropic({ respond: () => ({ toolInput: { a: 'from responder' } }) });
    fake.enqueue({ error: 429, retryAfterMs: 1500 }, { error: 529 }, { error: 500 });
    const rateLimited = await post(fake, validBody());
    expect(rateLimited.status).toBe(429);
    expect(rateLimited.headers.get('retry-after-ms')).toBe('1500');
    expect(rateLimited.headers.get('retry-after')).toBe('2');
    expect((await rateLimited.json()).error.type).toBe('rate_limit_error');
    const overloaded = await post(fake, validBody());
    expect(overloaded.status).toBe(529);
    expect((await overloaded.json()).error.type).toBe('overloaded_error');
    expect((await post(fake, validBody())).status).toBe(500);
    const ok = await (await post(fake, validBody())).json();
    expect(ok.content[0].input).toEqual({ a: 'from responder' });
    expect(fake.requests.map((r) => r.status)).toEqual([429, 529, 500, 200]);
  });

  it('answers 400 when nothing is scripted', async () => {
    fake = await startFakeAnthropic();
    expect((await post(fake, validBody())).status).toBe(400);
    expect(fake.violations()).toEqual(['request 0: no scripted reply for this request']);
  });

  it('answers by the forced tool with answerByTool', async () => {
    fake = await startFakeAnthropic({ respond: answerByTool({ answer: () => ({ a: 'by tool' }) }) });
    const ok = await (await post(fake, validBody())).json();
    expect(ok.content[0].input).toEqual({ a: 'by tool' });
    const other = validBody();
    other.tools = [{ name: 'other', input_schema: { type: 'object' } }];
    other.tool_choice = { type: 'tool', name: 'other' };
    const refused = await post(fake, other);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toContain('no answer scripted for tool other');
  });
});
