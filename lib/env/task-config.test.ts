import { describe, expect, it } from 'vitest';
import { parseTaskConfig } from './task-config.ts';

describe('parseTaskConfig', () => {
  it('fills Harbor defaults for missing sections', () => {
    const result = parseTaskConfig('version = "1.0"\n');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.verifier.timeout_sec).toBe(600);
    expect(result.config.agent.timeout_sec).toBe(600);
    expect(result.config.environment).toEqual({
      build_timeout_sec: 600,
      cpus: 1,
      memory_mb: 2048,
      storage_mb: 10240,
      allow_internet: true,
    });
    expect(result.config.metadata).toEqual({});
  });

  it('reads the typed settings and keeps the raw text', () => {
    const raw = [
      'version = "1.0"',
      '[metadata]',
      'author_name = "Ada"',
      'difficulty = "hard"',
      'tags = ["logs", "awk"]',
      '[verifier]',
      'timeout_sec = 120.5',
      '[agent]',
      'timeout_sec = 900',
      '[environment]',
      'cpus = 2',
      'memory_mb = 4096',
      'allow_internet = false',
      'workdir = "/app"',
    ].join('\n');
    const result = parseTaskConfig(raw);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.raw).toBe(raw);
    expect(result.config.metadata).toEqual({ author_name: 'Ada', difficulty: 'hard', tags: ['logs', 'awk'] });
    expect(result.config.verifier.timeout_sec).toBe(120.5);
    expect(result.config.agent.timeout_sec).toBe(900);
    expect(result.config.environment).toMatchObject({ cpus: 2, memory_mb: 4096, allow_internet: false, workdir: '/app', storage_mb: 10240 });
  });

  it('keeps unknown keys of version 2.0 files', () => {
    const raw = [
      'version = "2.0"',
      'schema_hint = "x"',
      '[metadata]',
      'subcategories = ["a"]',
      'expert_time_estimate_min = 30',
      '[environment]',
      'docker_image = "ghcr.io/x/y@sha256:abc"',
      '[solution.env]',
      'TOKEN = "t"',
    ].join('\n');
    const result = parseTaskConfig(raw);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.version).toBe('2.0');
    expect(result.config).toMatchObject({
      schema_hint: 'x',
      metadata: { subcategories: ['a'], expert_time_estimate_min: 30 },
      environment: { docker_image: 'ghcr.io/x/y@sha256:abc', cpus: 1 },
      solution: { env: { TOKEN: 't' } },
    });
  });

  it('reports unparsable TOML with its line and column', () => {
    const result = parseTaskConfig('version = "1.0"\n[verifier]\ntimeout_sec = = 3\n');
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/^invalid TOML at line 3, column \d+: /) });
  });

  it('reports known keys of the wrong type by their dotted path', () => {
    const result = parseTaskConfig('[environment]\ncpus = "two"\n[agent]\ntimeout_sec = -1\n');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain('environment.cpus');
    expect(result.error).toContain('agent.timeout_sec');
  });

  it('reads the Envolve extension [environment] sandbox_runtime, and refuses a runtime that does not exist', () => {
    const runsc = parseTaskConfig('[environment]\nsandbox_runtime = "runsc"\n');
    expect(runsc.ok && runsc.config.environment.sandbox_runtime).toBe('runsc');
    const unset = parseTaskConfig('[environment]\ncpus = 2\n');
    expect(unset.ok && unset.config.environment.sandbox_runtime).toBeUndefined();
    const kata = parseTaskConfig('[environment]\nsandbox_runtime = "kata"\n');
    expect(kata).toEqual({ ok: false, error: expect.stringContaining('environment.sandbox_runtime') });
  });
});
