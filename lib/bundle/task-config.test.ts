import { describe, expect, it } from 'vitest';
import { settingsFrom } from '../config/settings.ts';
import { ceilingWarnings, parseTaskConfig } from './task-config.ts';

const ceilings = settingsFrom({ ENVOLVE_MAX_CPUS: '4', ENVOLVE_MAX_MEMORY_MB: '16384', ENVOLVE_MAX_AGENT_TIMEOUT_SEC: '86400' }).sandbox.ceilings;

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

describe('task.toml resources and the deployment ceilings', () => {
  const refusal = (toml: string) => {
    const result = parseTaskConfig(toml, ceilings);
    if (result.ok) throw new Error(`accepted: ${toml}`);
    return result.error;
  };

  it('refuses a value no container can take, naming the ceiling and its setting', () => {
    expect(refusal('[environment]\nmemory_mb = 99999999999\n')).toBe(
      'invalid settings: environment.memory_mb: 99999999999 MB is more than any container can take (at most 8589934591 MB); ' +
        'this deployment gives a trial at most 16384 MB (ENVOLVE_MAX_MEMORY_MB)',
    );
    expect(refusal('[agent]\ntimeout_sec = 1e308\n')).toMatch(
      /agent\.timeout_sec: 1e\+308 s is more than any container can take .*at most 86400 s \(ENVOLVE_MAX_AGENT_TIMEOUT_SEC\)/,
    );
    expect(refusal('[environment]\nstorage_mb = 99999999999\n')).toMatch(/ENVOLVE_MAX_STORAGE_MB/);
    expect(refusal('[environment]\nbuild_timeout_sec = 1e308\n')).toMatch(/ENVOLVE_MAX_BUILD_TIMEOUT_SEC/);
    expect(refusal('[environment]\ncpus = 1e12\n')).toMatch(/environment\.cpus: .*at most 4 CPUs \(ENVOLVE_MAX_CPUS\)/);
  });

  it('refuses non-finite, zero and negative values the same way', () => {
    expect(refusal('[environment]\ncpus = inf\n')).toMatch(/environment\.cpus: Infinity is no amount a container can take; .*ENVOLVE_MAX_CPUS/);
    expect(refusal('[verifier]\ntimeout_sec = nan\n')).toMatch(/verifier\.timeout_sec: NaN is no amount .*ENVOLVE_MAX_VERIFIER_TIMEOUT_SEC/);
    expect(refusal('[environment]\nmemory_mb = 0\n')).toMatch(
      /memory_mb: 0 MB is less than any container can run with \(at least 6 MB\).*ENVOLVE_MAX_MEMORY_MB/,
    );
    expect(refusal('[agent]\ntimeout_sec = -600\n')).toMatch(/agent\.timeout_sec: -600 s is less than/);
    expect(refusal('[environment]\nmemory_mb = 1024.5\n')).toMatch(/memory_mb: expected a whole number of MB \(got 1024\.5\)/);
  });

  it('accepts a value over the ceiling that a container could take, and says what its trials will get', () => {
    const result = parseTaskConfig('[agent]\ntimeout_sec = 1e7\n[environment]\ncpus = 100000\nmemory_mb = 65536\nstorage_mb = 4096\n', ceilings);
    if (!result.ok) throw new Error(result.error);
    expect(result.config.environment).toMatchObject({ cpus: 100000, memory_mb: 65536 });
    expect(ceilingWarnings(result.config, ceilings)).toEqual([
      "[environment] cpus = 100000 is more than this deployment's ceiling: its trials run with 4 CPUs (ENVOLVE_MAX_CPUS)",
      "[environment] memory_mb = 65536 is more than this deployment's ceiling: its trials run with 16384 MB (ENVOLVE_MAX_MEMORY_MB)",
      "[agent] timeout_sec = 10000000 is more than this deployment's ceiling: its trials run with 86400 s (ENVOLVE_MAX_AGENT_TIMEOUT_SEC)",
    ]);
  });

  it('warns about nothing for a task within every ceiling', () => {
    const result = parseTaskConfig('[environment]\ncpus = 2\n', ceilings);
    expect(result.ok && ceilingWarnings(result.config, ceilings)).toEqual([]);
  });
});
