import { describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../../test/env/task-fixtures.ts';
import {
  bashInputJsonSchema,
  environmentServices,
  parseBashInput,
  PROMPT_OUTPUT_LIMIT,
  renderObservation,
  systemPrompt,
  truncateForPrompt,
  workingDirOf,
} from './llm-agent.ts';

const withDockerfile = (dockerfile: string, toml?: string) =>
  bundleOf({ ...validTaskFiles(), 'environment/Dockerfile': dockerfile, ...(toml === undefined ? {} : { 'task.toml': toml }) });

describe('workingDirOf', () => {
  it('takes the last WORKDIR of the final stage, resolving relative ones', () => {
    expect(workingDirOf(withDockerfile('FROM envolve/base:bookworm\nWORKDIR /app\n'))).toBe('/app');
    expect(workingDirOf(withDockerfile('FROM base\nWORKDIR /srv\nWORKDIR project\nworkdir "sub dir"\n'))).toBe('/srv/project/sub dir');
    expect(workingDirOf(withDockerfile('FROM builder AS b\nWORKDIR /build\nFROM base\nRUN true\n'))).toBe('/');
  });

  it('falls back to task.toml [environment] workdir, then /', () => {
    expect(workingDirOf(withDockerfile('FROM base\n', '[environment]\nworkdir = "/workspace"\n'))).toBe('/workspace');
    expect(workingDirOf(withDockerfile('FROM base\n', 'not = [valid'))).toBe('/');
  });
});

describe('truncateForPrompt', () => {
  it('keeps short text as it is', () => {
    expect(truncateForPrompt('abc')).toBe('abc');
    const exact = 'x'.repeat(PROMPT_OUTPUT_LIMIT);
    expect(truncateForPrompt(exact)).toBe(exact);
  });

  it('keeps the head and the tail of long text and says how much is left out', () => {
    const text = `${'h'.repeat(60)}${'m'.repeat(100)}${'t'.repeat(40)}`;
    expect(truncateForPrompt(text, 100)).toBe(
      `${'h'.repeat(50)}\n[... 100 characters omitted from the middle of this output ...]\n${'m'.repeat(10)}${'t'.repeat(40)}`,
    );
  });
});

describe('renderObservation', () => {
  it('says how the command ended', () => {
    expect(renderObservation({ output: 'ok\n', exitCode: 0, durationMs: 5, timedOut: false })).toBe('ok\n\n[exit code 0]');
    expect(renderObservation({ output: '', exitCode: 2, durationMs: 5, timedOut: false })).toBe('(no output)\n[exit code 2]');
    expect(renderObservation({ output: 'partial', exitCode: null, durationMs: 30_000, timedOut: true })).toBe(
      'partial\n[the command was killed: it timed out after 30.0 s]',
    );
    expect(renderObservation({ output: '', exitCode: null, durationMs: 1500, timedOut: false })).toBe('(no output)\n[the command was killed after 1.5 s]');
  });
});

describe('the bash tool', () => {
  it('has a JSON Schema generated from the schema its input is parsed with', () => {
    expect(bashInputJsonSchema()).toMatchObject({
      type: 'object',
      required: ['command'],
      properties: { command: { type: 'string' }, timeout: { type: 'integer' } },
    });
    expect(bashInputJsonSchema()).not.toHaveProperty('$schema');
  });

  it('parses a call or explains what is wrong with it', () => {
    expect(parseBashInput({ command: 'ls', timeout: 5 })).toEqual({ ok: true, command: 'ls', timeoutSec: 5 });
    expect(parseBashInput({ command: 'ls' })).toEqual({ ok: true, command: 'ls', timeoutSec: undefined });
    expect(parseBashInput({ command: 'ls', timeout: -1 })).toMatchObject({ ok: false, problem: expect.stringMatching(/timeout: /) });
    expect(parseBashInput('ls')).toMatchObject({ ok: false, problem: expect.stringMatching(/call it as \{"command": "\.\.\."\}/) });
  });
});

describe('environmentServices', () => {
  it("names a compose task's sidecars and the MCP servers task.toml declares, and the prompt says so", () => {
    const task = bundleOf({
      ...validTaskFiles(),
      'task.toml': '[environment]\n[[environment.mcp_servers]]\nname = "tickets"\ntransport = "streamable-http"\nurl = "http://mcp:8000/mcp"\n',
      'environment/docker-compose.yaml': 'services:\n  main:\n    build: .\n  mcp:\n    image: envolve/base:bookworm\n',
    });
    const services = environmentServices(task);
    expect(services).toEqual([
      'Other services run beside this container and are reachable by host name: mcp.',
      "MCP server 'tickets' (streamable-http http://mcp:8000/mcp) is available to you from the container.",
    ]);
    const prompt = systemPrompt('/app', services);
    expect(prompt).toContain('There is no internet access.');
    expect(prompt).toContain("MCP server 'tickets'");
    expect(environmentServices(bundleOf(validTaskFiles()))).toEqual([]);
    expect(systemPrompt('/app')).toContain('There is no network access.');
  });
});
