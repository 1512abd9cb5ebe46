// Domain rules validated for real in Docker: one bundle per domain whose steps read the domain's
// file through its rule (each with a skill that computes differently: a sum, a top count, a time
// span, a threshold count, a percentile …). The reference solution scores 1 and the empty one 0,
// and the same bundle with every step's parent-question near miss (the computation over every row,
// the rule ignored) as its solution fails every step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import type { TaskBundle } from '../../lib/env/bundle.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { renderEnvironmentWithSteps } from '../../lib/synth/procedural/index.ts';
import { DOMAIN_NAMES } from '../../lib/synth/procedural/catalogue.ts';
import { validateEnvironment } from '../../lib/validate/validate-environment.ts';
import { limitMs, proceduralTaskBudgets, validationMs } from '../budgets.ts';

const SKILLS = ['awk-fields', 'sort-uniq-count', 'date-arithmetic', 'config-parse', 'python-script', 'grep-regex', 'tar-archive', 'git-history'];

let testDb: TestDb;
const sandbox = new DockerSandbox();

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

async function validate(bundle: TaskBundle) {
  const versionId = await storeBundle(testDb.db, bundle, { source: 'import' });
  const runs = await validateEnvironment({ db: testDb.db, sandbox, versionId });
  return Object.fromEntries(runs.map((r) => [r.kind, r]));
}

// The bundle with its solution replaced: each step's near miss in a subshell, so one that fails
// outright leaves the others to run.
function withSolution(bundle: TaskBundle, fragments: string[]): TaskBundle {
  const script = ['#!/bin/bash', 'set -uo pipefail', 'export LC_ALL=C', 'mkdir -p /app/out', ...fragments.map((f) => `(\nset -e\n${f}\n) || true`), ''].join(
    '\n',
  );
  return {
    ...bundle,
    name: `${bundle.name}-near-misses`,
    files: bundle.files.map((f) => (f.path === 'solution/solve.sh' ? { ...f, content: Buffer.from(script) } : f)),
  };
}

describe('domain rules in Docker', () => {
  for (const domain of DOMAIN_NAMES) {
    const sequence = { steps: SKILLS.map((skill, i) => ({ id: `s${i + 1}`, scenario: i % 4 === 3 ? `${domain}+csv` : domain, skill, dependsOn: [] })) };
    const budgets = proceduralTaskBudgets(sequence.steps.length);
    it(
      `${domain}: the reference solution passes, and every step's parent-question near miss fails`,
      async () => {
        const { bundle, steps } = renderEnvironmentWithSteps(sequence, { seed: 4343, name: `rules-${domain}` });
        const reference = await validate(bundle);
        expect(reference.oracle, `${domain} oracle:\n${reference.oracle?.verifierLog}\n${reference.oracle?.agentLog}`).toMatchObject({
          verdict: 'passed',
          reward: 1,
        });
        expect(reference['invalid-test'], `${domain} nop`).toMatchObject({ verdict: 'passed', reward: 0 });

        const misses = steps.map((s) => s.parentQuestion);
        expect(misses.every(Boolean), 'every step reads its file through the rule').toBe(true);
        const missed = await validate(
          withSolution(
            bundle,
            misses.map((m) => m!.solve),
          ),
        );
        const log = missed.oracle?.verifierLog ?? '';
        for (const step of sequence.steps) expect(log, `${domain} ${step.id} near miss:\n${log}`).toMatch(new RegExp(`^${step.id}: failed`, 'm'));
      },
      limitMs(validationMs(budgets), validationMs(budgets)),
    );
  }
});
