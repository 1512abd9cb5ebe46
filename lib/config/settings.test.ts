import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { SettingsError, settingsFrom } from './settings.ts';

describe('settingsFrom', () => {
  it('gives every setting its default when the environment is empty, and treats a blank variable as unset', () => {
    const defaults = settingsFrom({});
    expect(defaults.databaseUrl).toBe('file:./data/envolve.db');
    expect(defaults.web).toMatchObject({ host: '127.0.0.1', port: 3000 });
    expect(defaults.sandbox.warmPool).toBe(2);
    expect(defaults.worker).toEqual({ concurrency: 2, leaseMs: 60_000, reapIntervalMs: 60_000 });
    expect(defaults.log).toEqual({ level: 'info', format: 'auto' });
    expect(settingsFrom({ ENVOLVE_WARM_POOL: ' ', PORT: '' })).toEqual(defaults);
  });

  it('gives the resource ceilings their defaults, and refuses a timeout ceiling a timer could not hold', () => {
    expect(settingsFrom({}).sandbox.ceilings).toEqual({
      cpus: availableParallelism(),
      memoryMb: 16_384,
      storageMb: 20_480,
      pids: 4_096,
      agentTimeoutSec: 86_400,
      verifierTimeoutSec: 86_400,
      buildTimeoutSec: 86_400,
    });
    expect(settingsFrom({ ENVOLVE_MAX_CPUS: '0.5', ENVOLVE_MAX_AGENT_TIMEOUT_SEC: '604800' }).sandbox.ceilings).toMatchObject({
      cpus: 0.5,
      agentTimeoutSec: 604_800,
    });
    expect(() => settingsFrom({ ENVOLVE_MAX_AGENT_TIMEOUT_SEC: '2147484' })).toThrow(/ENVOLVE_MAX_AGENT_TIMEOUT_SEC: expected a whole number from 1 to 604800/);
    expect(() => settingsFrom({ ENVOLVE_MAX_MEMORY_MB: '5' })).toThrow(/ENVOLVE_MAX_MEMORY_MB: expected a whole number from 6 to/);
    expect(() => settingsFrom({ ENVOLVE_MAX_CPUS: '0' })).toThrow(/ENVOLVE_MAX_CPUS: expected a number from 0\.01 to 1024/);
  });

  it('types what it reads', () => {
    const s = settingsFrom({ ENVOLVE_WARM_POOL: '0', PORT: '8080', ENVOLVE_WORKER_LEASE_SEC: '2.5', ENVOLVE_RELEASE_RATE: '0.5', ENVOLVE_LOG_LEVEL: 'debug' });
    expect(s.sandbox.warmPool).toBe(0);
    expect(s.web.port).toBe(8080);
    expect(s.worker.leaseMs).toBe(2500);
    expect(s.scheduler.releaseRate).toBe(0.5);
    expect(s.scheduler.probeSize).toBeUndefined();
    expect(s.log.level).toBe('debug');
  });

  it('refuses a bad value naming the variable, what it expected and what it got', () => {
    for (const bad of ['-1', '2.5', 'two', '1000']) {
      expect(() => settingsFrom({ ENVOLVE_WARM_POOL: bad })).toThrow(
        new RegExp(`ENVOLVE_WARM_POOL: expected a whole number from 0 to 64 \\(got "${bad.replace('.', '\\.')}"\\)`),
      );
    }
    expect(() => settingsFrom({ PORT: '70000' })).toThrow(/PORT: expected a whole number from 1 to 65535/);
    expect(() => settingsFrom({ ENVOLVE_LOG_LEVEL: 'loud' })).toThrow(/ENVOLVE_LOG_LEVEL: expected one of debug, info, warn, error/);
    expect(() => settingsFrom({ BETTER_AUTH_URL: 'envolve.example.org' })).toThrow(/BETTER_AUTH_URL: expected an http/);
    expect(() => settingsFrom({ ENVOLVE_TRUSTED_PROXIES: 'proxy.internal' })).toThrow(/ENVOLVE_TRUSTED_PROXIES: not an address or CIDR range/);
    expect(() => settingsFrom({ ENVOLVE_TRUSTED_PROXIES: '127.0.0.1, 0.0.0.0/0' })).toThrow(
      /ENVOLVE_TRUSTED_PROXIES: 0\.0\.0\.0\/0 trusts every address, so any client could choose its own; list the proxies' addresses or ranges \(got "127\.0\.0\.1, 0\.0\.0\.0\/0"\)/,
    );
    expect(() => settingsFrom({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: expected file:PATH/);
  });

  it('reports every bad variable at once, and never echoes a secret', () => {
    let error: unknown;
    try {
      settingsFrom({ PORT: 'x', ENVOLVE_WORKER_CONCURRENCY: '0', DATABASE_URL: 'mysql://user:hunter2@db' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).problems.map((p) => p.split(':')[0])).toEqual(['DATABASE_URL', 'PORT', 'ENVOLVE_WORKER_CONCURRENCY']);
    expect((error as Error).message).not.toContain('hunter2');
  });

  it("checks the scheduler's rule across variables", () => {
    expect(() => settingsFrom({ ENVOLVE_PROBE_SIZE: '4' })).toThrow(/ENVOLVE_MIN_GROUP: minGroup cannot exceed probeSize/);
    expect(settingsFrom({ ENVOLVE_PROBE_SIZE: '4', ENVOLVE_MIN_GROUP: '4' }).scheduler).toMatchObject({ probeSize: 4, minGroup: 4 });
  });
});
