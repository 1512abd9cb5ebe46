// Shape checks a fake of the Messages API applies to every request. Each returns plain-words
// violations; most are what the real API would answer with a 400, one (the cache marker) is
// Envolve's own rule: the stable prefix must be marked cacheable or caching never happens.

type Json = Record<string, unknown>;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const JSON_SCHEMA_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const MAX_CACHE_BREAKPOINTS = 4;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function headerViolations(headers: Record<string, string | undefined>): string[] {
  const violations: string[] = [];
  // The API takes the key as x-api-key; SDK 1.x sends it as a Bearer token. Either is a key.
  const bearer = headers['authorization']?.startsWith('Bearer ') ?? false;
  if (!headers['x-api-key'] && !bearer) violations.push('missing x-api-key (or Authorization: Bearer) header');
  if (!headers['anthropic-version']) violations.push('missing anthropic-version header');
  if (!headers['content-type']?.startsWith('application/json')) violations.push('content-type is not application/json');
  return violations;
}

export function bodyViolations(body: unknown): string[] {
  if (!isObject(body)) return ['body is not a JSON object'];
  const violations: string[] = [];
  if (typeof body.model !== 'string' || body.model === '') violations.push('missing model');
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) violations.push('missing or invalid max_tokens');
  violations.push(...messagesViolations(body.messages));
  violations.push(...systemViolations(body.system));
  const toolNames = new Set<string>();
  violations.push(...toolsViolations(body.tools, toolNames));
  violations.push(...toolChoiceViolations(body.tool_choice, toolNames));
  violations.push(...cacheMarkerViolations(body));
  return violations;
}

function messagesViolations(messages: unknown): string[] {
  if (!Array.isArray(messages) || messages.length === 0) return ['missing messages'];
  const violations: string[] = [];
  messages.forEach((message, i) => {
    if (!isObject(message) || (message.role !== 'user' && message.role !== 'assistant')) {
      violations.push(`messages[${i}] has no user/assistant role`);
      return;
    }
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) violations.push(`messages[${i}] has no content`);
  });
  if (isObject(messages[0]) && messages[0].role !== 'user') violations.push('the first message is not from the user');
  violations.push(...unansweredToolUses(messages));
  return violations;
}

// After an assistant tool_use the next user message must carry a tool_result for each of its ids.
function unansweredToolUses(messages: unknown[]): string[] {
  const violations: string[] = [];
  messages.forEach((message, i) => {
    if (!isObject(message) || message.role !== 'assistant' || !Array.isArray(message.content)) return;
    const ids = message.content.filter((b): b is Json => isObject(b) && b.type === 'tool_use').map((b) => String(b.id));
    if (ids.length === 0) return;
    const next = messages[i + 1];
    const answered = new Set(
      isObject(next) && Array.isArray(next.content)
        ? next.content.filter((b): b is Json => isObject(b) && b.type === 'tool_result').map((b) => String(b.tool_use_id))
        : [],
    );
    for (const id of ids) if (!answered.has(id)) violations.push(`tool_use ${id} in messages[${i}] has no tool_result in the next message`);
  });
  return violations;
}

function systemViolations(system: unknown): string[] {
  if (system === undefined || typeof system === 'string') return [];
  if (!Array.isArray(system)) return ['system is neither a string nor a list of blocks'];
  return system.flatMap((block, i) => (isObject(block) && block.type === 'text' && typeof block.text === 'string' ? [] : [`system[${i}] is not a text block`]));
}

function toolsViolations(tools: unknown, names: Set<string>): string[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) return ['tools is not a list'];
  const violations: string[] = [];
  tools.forEach((tool, i) => {
    if (!isObject(tool)) {
      violations.push(`tools[${i}] is not an object`);
      return;
    }
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) violations.push(`tools[${i}] has no valid name`);
    else if (names.has(tool.name)) violations.push(`tools[${i}]: duplicate tool name ${tool.name}`);
    else names.add(tool.name);
    if (!isObject(tool.input_schema)) {
      violations.push(`tools[${i}] has no input_schema`);
      return;
    }
    if (tool.input_schema.type !== 'object') violations.push(`tools[${i}].input_schema.type is not "object"`);
    violations.push(...jsonSchemaViolations(tool.input_schema, `tools[${i}].input_schema`));
  });
  return violations;
}

// A structural check of the JSON Schema keywords tool schemas use; unknown keywords pass.
export function jsonSchemaViolations(schema: unknown, where: string): string[] {
  if (typeof schema === 'boolean') return [];
  if (!isObject(schema)) return [`${where} is not a schema object`];
  const violations: string[] = [];
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  for (const type of types) if (!JSON_SCHEMA_TYPES.has(type as string)) violations.push(`${where}.type ${JSON.stringify(type)} is not a JSON Schema type`);
  if (schema.properties !== undefined) {
    if (!isObject(schema.properties)) violations.push(`${where}.properties is not an object`);
    else for (const [key, sub] of Object.entries(schema.properties)) violations.push(...jsonSchemaViolations(sub, `${where}.properties.${key}`));
  }
  if (schema.required !== undefined) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    if (!Array.isArray(schema.required)) violations.push(`${where}.required is not a list`);
    else
      for (const key of schema.required)
        if (typeof key !== 'string' || !(key in properties)) violations.push(`${where}.required names unknown property ${JSON.stringify(key)}`);
  }
  if (schema.items !== undefined) violations.push(...jsonSchemaViolations(schema.items, `${where}.items`));
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean') {
    violations.push(...jsonSchemaViolations(schema.additionalProperties, `${where}.additionalProperties`));
  }
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.length === 0)) violations.push(`${where}.enum is not a non-empty list`);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) violations.push(`${where}.${key} is not a list`);
    else list.forEach((sub, i) => violations.push(...jsonSchemaViolations(sub, `${where}.${key}[${i}]`)));
  }
  return violations;
}

function toolChoiceViolations(choice: unknown, toolNames: Set<string>): string[] {
  if (choice === undefined) return [];
  if (!isObject(choice) || !['auto', 'any', 'tool', 'none'].includes(choice.type as string)) return ['tool_choice has no valid type'];
  if (choice.type === 'tool' && !toolNames.has(choice.name as string)) return [`tool_choice names unknown tool ${JSON.stringify(choice.name)}`];
  return [];
}

function cacheMarkerViolations(body: Json): string[] {
  const violations: string[] = [];
  const system = body.system;
  const last = Array.isArray(system) ? system[system.length - 1] : undefined;
  if (!isObject(last) || !isObject(last.cache_control)) violations.push('the system prefix carries no cache_control marker on its last block');
  const markers = cacheSegments(body).filter((s) => s.marker !== undefined);
  if (markers.length > MAX_CACHE_BREAKPOINTS) violations.push(`${markers.length} cache_control markers; the API allows ${MAX_CACHE_BREAKPOINTS}`);
  for (const { marker } of markers) if (isObject(marker) && marker.type !== 'ephemeral') violations.push('a cache_control marker is not {type: "ephemeral"}');
  return violations;
}

export interface CacheSegment {
  json: string; // the block as sent, without its cache_control
  marker: unknown; // its cache_control, when it has one
}

// The request in the API's caching order — tools, then system, then messages — one segment per
// block, so a prefix up to a breakpoint is the concatenation of the segments before it.
export function cacheSegments(body: Json): CacheSegment[] {
  const segments: CacheSegment[] = [];
  // The marker is not part of the cached bytes: a conversation that moves its breakpoint to the
  // newest message each turn still reads the earlier turns back, as with the real API.
  const add = (block: unknown) => {
    if (!isObject(block)) return segments.push({ json: JSON.stringify(block), marker: undefined });
    const { cache_control: marker, ...rest } = block;
    return segments.push({ json: JSON.stringify(rest), marker });
  };
  if (Array.isArray(body.tools)) body.tools.forEach(add);
  if (Array.isArray(body.system)) body.system.forEach(add);
  else if (body.system !== undefined) add(body.system);
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (!isObject(message)) continue;
      if (Array.isArray(message.content)) message.content.forEach(add);
      else add({ role: message.role, content: message.content });
    }
  }
  return segments;
}
