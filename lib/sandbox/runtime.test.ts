import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { settingsFrom } from '../config/settings.ts';
import { assertRuntimeRegistered, configuredSandboxRuntime, SandboxRuntimeUnavailableError } from './runtime.ts';

const engineWith = (...runtimes: string[]) => ({ info: async () => ({ Runtimes: Object.fromEntries(runtimes.map((r) => [r, {}])) }) }) as unknown as Docker;

describe('sandbox runtime', () => {
  it('reads ENVOLVE_SANDBOX_RUNTIME, runc when unset, and refuses other names saying which exist', () => {
    expect(configuredSandboxRuntime(settingsFrom({}))).toBe('runc');
    expect(configuredSandboxRuntime(settingsFrom({ ENVOLVE_SANDBOX_RUNTIME: 'runsc' }))).toBe('runsc');
    expect(() => settingsFrom({ ENVOLVE_SANDBOX_RUNTIME: 'kata' })).toThrow('ENVOLVE_SANDBOX_RUNTIME: expected one of runc, runsc (got "kata")');
  });

  it('says how to register runsc when the engine lacks it', async () => {
    await expect(assertRuntimeRegistered(engineWith('runc'), 'runsc')).rejects.toThrow(SandboxRuntimeUnavailableError);
    await expect(assertRuntimeRegistered(engineWith('runc'), 'runsc')).rejects.toThrow(/not registered.*\(it has: runc\).*prereqs\.sh docker/);
    await expect(assertRuntimeRegistered(engineWith('runc', 'runsc'), 'runsc')).resolves.toBeUndefined();
    await expect(assertRuntimeRegistered(engineWith(), 'runc')).resolves.toBeUndefined();
  });
});
