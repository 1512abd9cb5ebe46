import { describe, expect, it } from 'vitest';
import { lineageSettingsSchema } from './config.ts';

const base = { axisPolicy: { kind: 'round-robin' }, effort: 'low', synthesiser: 'procedural', seed: 1 } as const;

describe('lineage settings', () => {
  it("keep the deployment's runtime unless the lineage chooses runc or runsc", () => {
    expect(lineageSettingsSchema.parse(base).sandboxRuntime).toBeUndefined();
    expect(lineageSettingsSchema.parse({ ...base, sandboxRuntime: 'runsc' }).sandboxRuntime).toBe('runsc');
    expect(lineageSettingsSchema.parse({ ...base, sandboxRuntime: 'runc' }).sandboxRuntime).toBe('runc');
  });

  it('refuse a runtime that does not exist, naming the field', () => {
    const parsed = lineageSettingsSchema.safeParse({ ...base, sandboxRuntime: 'kata' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['sandboxRuntime']);
  });
});
