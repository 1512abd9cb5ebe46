import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { settingsFrom } from '../config/settings.ts';
import {
  assertRuntimeRegistered,
  configuredSandboxRuntime,
  describeSandboxRuntime,
  environmentRuntime,
  resolveSandboxRuntime,
  sandboxRuntimeFor,
  SandboxRuntimeUnavailableError,
} from './runtime.ts';

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

  it("resolves the lineage's choice, else the deployment's, and says which decided", () => {
    expect(resolveSandboxRuntime({ deployment: 'runc' })).toEqual({ runtime: 'runc', source: 'deployment' });
    expect(resolveSandboxRuntime({ deployment: 'runsc' })).toEqual({ runtime: 'runsc', source: 'deployment' });
    expect(resolveSandboxRuntime({ deployment: 'runc', lineage: 'runsc' })).toEqual({ runtime: 'runsc', source: 'lineage' });
    // A lead may run a lineage under runc on a runsc deployment: the lineage's settings are trusted.
    expect(resolveSandboxRuntime({ deployment: 'runsc', lineage: 'runc' })).toEqual({ runtime: 'runc', source: 'lineage' });
  });

  it('lets an environment raise isolation to runsc but never lower it', () => {
    expect(resolveSandboxRuntime({ deployment: 'runc', environment: 'runsc' })).toEqual({ runtime: 'runsc', source: 'environment' });
    expect(resolveSandboxRuntime({ deployment: 'runsc', lineage: 'runc', environment: 'runsc' })).toEqual({ runtime: 'runsc', source: 'environment' });
    // Already runsc: the environment decided nothing.
    expect(resolveSandboxRuntime({ deployment: 'runc', lineage: 'runsc', environment: 'runsc' })).toEqual({ runtime: 'runsc', source: 'lineage' });
    expect(resolveSandboxRuntime({ deployment: 'runsc', lineage: 'runsc', environment: 'runc' })).toEqual({ runtime: 'runsc', source: 'lineage' });
    expect(resolveSandboxRuntime({ deployment: 'runsc', environment: 'runc' })).toEqual({ runtime: 'runsc', source: 'deployment' });
    expect(resolveSandboxRuntime({ deployment: 'runc', environment: 'runc' })).toEqual({ runtime: 'runc', source: 'deployment' });
  });

  it("reads the requirement from the files' task.toml; a file that does not parse requires nothing", () => {
    const files = (toml: string) => [{ path: 'task.toml', content: Buffer.from(toml), executable: false }];
    expect(environmentRuntime(files('[environment]\nsandbox_runtime = "runsc"\n'))).toBe('runsc');
    expect(environmentRuntime(files('[environment]\nsandbox_runtime = "runc"\n'))).toBe('runc');
    expect(environmentRuntime(files('[environment]\ncpus = 2\n'))).toBeUndefined();
    expect(environmentRuntime(files('[environment]\nsandbox_runtime = "kata"\n'))).toBeUndefined();
    expect(environmentRuntime([{ path: 'plan.json', content: Buffer.from('{}'), executable: false }])).toBeUndefined();
    expect(sandboxRuntimeFor(undefined, files('[environment]\nsandbox_runtime = "runsc"\n'), 'runc')).toEqual({ runtime: 'runsc', source: 'environment' });
    expect(sandboxRuntimeFor('runsc', files('[environment]\nsandbox_runtime = "runc"\n'), 'runc')).toEqual({ runtime: 'runsc', source: 'lineage' });
    expect(sandboxRuntimeFor(undefined, [], 'runsc')).toEqual({ runtime: 'runsc', source: 'deployment' });
  });

  it('describes a resolved runtime with its reason', () => {
    expect(describeSandboxRuntime({ runtime: 'runsc', source: 'environment' })).toBe("runsc (required by the environment's task.toml)");
    expect(describeSandboxRuntime({ runtime: 'runc', source: 'deployment' })).toBe("runc (the deployment's default, ENVOLVE_SANDBOX_RUNTIME)");
  });
});
