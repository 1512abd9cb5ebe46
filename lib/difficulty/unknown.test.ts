// An undescribed imported task has no D: its opaque step is not priced, the stored row
// holds no components, every reader gets "unknown — undescribed", and no estimator is asked about
// a placeholder name. Fitted priors chosen for a lineage are loaded by version, never silently
// replaced by the shipped table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import type { Sequence } from '../sequence/types.ts';
import { computeDifficulty } from './compute.ts';
import { difficulty, isKnown } from './difficulty.ts';
import type { PriorEstimator } from './estimator.ts';
import { fitPriors } from './fit.ts';
import { priorsChoices, priorsTable, storeFittedPriors } from './fitted-store.ts';
import { tablePriors } from './priors.ts';
import { REFERENCE_TABLE } from './reference-priors.ts';
import { resolvePriors } from './resolve.ts';
import { readStoredDifficulty, requireKnownDifficulty } from './store.ts';

// What the procedural engine reads off a task it did not render (lib/synth/procedural/imported.ts).
const opaque: Sequence = { steps: [{ id: 's1', scenario: 'imported:access-log-report', skill: 'imported:access-log-report', dependsOn: [] }] };
// The same task lengthened by one described step consuming it.
const lengthened: Sequence = {
  steps: [...opaque.steps, { id: 's2', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: ['s1'] }],
};
const described: Sequence = {
  steps: [
    { id: 's1', scenario: 'web-access-log', skill: 'awk-fields', dependsOn: [] },
    { id: 's2', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: ['s1'] },
  ],
};

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.cleanup();
});

describe('an opaque step', () => {
  it('is not priced: D is unknown, and the components cover only the described steps', () => {
    const alone = difficulty(opaque, tablePriors(REFERENCE_TABLE));
    expect(isKnown(alone)).toBe(false);
    expect(alone.undescribed).toEqual(['s1']);
    // Nothing is charged for it: before, the smoothing floor made this 26.42.
    expect(alone.total).toBe(0);
    expect(alone.smoothed).toEqual([]);

    const longer = difficulty(lengthened, tablePriors(REFERENCE_TABLE));
    const step = difficulty({ steps: [{ ...lengthened.steps[1]!, dependsOn: [] }] }, tablePriors(REFERENCE_TABLE));
    expect(longer.undescribed).toEqual(['s1']);
    expect(longer.total).toBeCloseTo(step.total, 12);
    expect(longer.depth).toBe(2);
  });

  it('is never sent to the estimator', async () => {
    const asked: string[] = [];
    const estimator: PriorEstimator = {
      model: 'fake-llm',
      async estimate(kind, name) {
        asked.push(`${kind}:${name}`);
        return 0.1;
      },
    };
    await resolvePriors(t.db, lengthened, estimator);
    expect(asked).toEqual([]);
  });

  it('is stored with no components and read back as unknown — undescribed, never as 0', async () => {
    await t.db.environmentVersion.create({ data: { id: 'opaque-v', name: 'access-log-report', source: 'import', taskToml: '', instruction: '' } });
    await computeDifficulty(t.db, 'opaque-v', lengthened);
    const row = await t.db.environmentVersion.findUniqueOrThrow({ where: { id: 'opaque-v' } });
    expect(row).toMatchObject({ difficultyLength: null, difficultyScenario: null, difficultySkill: null, difficultyDepth: 2 });
    const stored = readStoredDifficulty(row);
    expect(stored).toEqual({ unknown: 'undescribed', label: 'unknown — undescribed', undescribedSteps: ['s1'], depth: 2 });
    expect(() => requireKnownDifficulty(stored, 'the import')).toThrow(/the import has D unknown — undescribed \(steps s1\)/);

    // Described, the same version gets a number again.
    await computeDifficulty(t.db, 'opaque-v', described);
    const again = readStoredDifficulty(await t.db.environmentVersion.findUniqueOrThrow({ where: { id: 'opaque-v' } }));
    expect(requireKnownDifficulty(again, 'the described import').total).toBeGreaterThan(0);
  });
});

describe('the priors table a lineage names', () => {
  it('is the shipped table for none or for its own version, the stored fit for a fitted version, and an error for a missing one', async () => {
    expect(await priorsTable(t.db, null)).toBe(REFERENCE_TABLE);
    expect(await priorsTable(t.db, REFERENCE_TABLE.version)).toBe(REFERENCE_TABLE);
    const fitted = fitPriors([{ name: 'corpus-a', versionId: 'c1', sequence: described }], REFERENCE_TABLE);
    await storeFittedPriors(t.db, fitted);
    const loaded = await priorsTable(t.db, fitted.table.version);
    expect(loaded.version).toBe(fitted.table.version);
    // The fitted table prices the corpus's pair differently from the shipped one, so D differs.
    const underFit = difficulty(described, tablePriors(loaded));
    const underRef = difficulty(described, tablePriors(REFERENCE_TABLE));
    expect(underFit.model).toBe(fitted.table.version);
    expect(underFit.total).not.toBeCloseTo(underRef.total, 3);
    await expect(priorsTable(t.db, 'fit-000000000000')).rejects.toThrow(/reference priors fit-000000000000 are not stored/);

    const choices = await priorsChoices(t.db);
    expect(choices.map((c) => c.version)).toEqual([REFERENCE_TABLE.version, fitted.table.version]);
    expect(choices[1]!.description).toMatch(/from 1 environments \(2 steps\) over ref-/);
  });
});
