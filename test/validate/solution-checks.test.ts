// The counter-check and near-miss validators against a real container: a procedural candidate
// whose step s2 only gained a gzip wrapper is answered by an ancestor's solution once the data is
// unwrapped; a near miss the tests reject is caught, one they let through (trailing spaces the
// verifier ignores) fails the near-miss verdict; both verdicts say which run and which step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { limitMs, buildMs, taskBudgets } from '../budgets.ts';
import type { BundleFile, TaskBundle } from '../../lib/bundle/bundle.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { parseTaskConfig } from '../../lib/bundle/task-config.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { renderEnvironment } from '../../lib/synth/procedural/index.ts';
import { planSolutionChecks, type SolutionCheckInput } from '../../lib/validate/solution-check-plan.ts';
import { parseSolutionCheckReport } from '../../lib/validate/solution-check-report.ts';
import { solutionCheckBudgets } from '../../lib/validate/solution-checks.ts';
import { validateEnvironment } from '../../lib/validate/validate-environment.ts';

let testDb: TestDb;
const sandbox = new DockerSandbox();

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

const text = (path: string, content: string, executable = false): BundleFile => ({ path, content: Buffer.from(content), executable });
const fileOf = (bundle: TaskBundle, path: string) => bundle.files.find((f) => f.path === path)!.content.toString();

// The seed asks s2 over plain auth logs; the candidate changes s2 and delivers its logs gzipped.
const seed = renderEnvironment(
  {
    steps: [
      { id: 's1', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: [] },
      { id: 's2', scenario: 'auth-syslog', skill: 'awk-fields', dependsOn: ['s1'] },
    ],
  },
  { seed: 101, name: 'seed' },
);
const rendered = renderEnvironment(
  {
    steps: [
      { id: 's1', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: [] },
      { id: 's2', scenario: 'auth-syslog', skill: 'awk-fields+gz', dependsOn: ['s1'] },
    ],
  },
  { seed: 101, name: 'candidate' },
);
const solve = fileOf(rendered, 'solution/solve.sh');
// The candidate's own solution without its gunzip: the question of s2 already answered, only the
// wrapper missing, as a parent that differs by the wrapper alone would be.
const unwrappedParentSolve = solve.replace(/src="\$d"; d=\$\(mktemp -d\)\ncp -r "\$src"\/\. "\$d"\nfind "\$d" -name '\*\.gz' -exec gunzip \{\} \+\n/, '');
const candidate: TaskBundle = {
  name: rendered.name,
  files: [
    // Only the two near misses below, so the report's counts are theirs.
    ...rendered.files.filter((f) => !f.path.startsWith('solution/near-misses/')),
    // Counts the other event: the tests reject it on s2.
    text('solution/near-misses/s2.wrong-event.sh', solve.replace("c='Failed-password'", "c='Accepted-password'")),
    // Trailing spaces on s1's line: the verifier ignores them, so the tests let this through.
    text('solution/near-misses/s1.trailing-space.sh', `${solve}\nsed -i 's/$/   /' /app/out/s1.txt\n`),
  ],
};
const input: SolutionCheckInput = {
  ancestors: [
    { versionId: 'a'.repeat(64), label: 'generation 1', files: [text('solve.sh', unwrappedParentSolve, true)] },
    { versionId: 'b'.repeat(64), label: 'the seed', files: [text('solve.sh', fileOf(seed, 'solution/solve.sh'), true)] },
  ],
  changedSteps: ['s2'],
};

function trialLimitMs(): number {
  const parsed = parseTaskConfig(fileOf(candidate, 'task.toml'));
  if (!parsed.ok) throw new Error(parsed.error);
  const plan = planSolutionChecks(candidate, input);
  const budgets = solutionCheckBudgets(plan.runs.length, plan.unwrapBefore !== null, parsed.config);
  const task = taskBudgets(candidate);
  // The build, then the longest of the parallel trials: the solution checks' phases.
  return limitMs(buildMs(task), (budgets.agentPhaseSec + budgets.verifierPhaseSec) * 1000);
}

describe('counter-check and near-miss validators', () => {
  it(
    'fail a candidate an ancestor answers after unwrapping, and one whose tests let a near miss through',
    async () => {
      expect(unwrappedParentSolve).not.toContain('gunzip');
      const versionId = await storeBundle(testDb.db, candidate, { source: 'import' });
      const runs = await validateEnvironment({ db: testDb.db, sandbox, versionId, solutionChecks: input });
      const byKind = Object.fromEntries(runs.map((r) => [r.kind, r]));
      expect(Object.keys(byKind).sort()).toEqual(['counter-check', 'invalid-test', 'near-miss', 'oracle']);
      expect(byKind.oracle).toMatchObject({ verdict: 'passed' });

      const counter = byKind['counter-check']!;
      expect(counter).toMatchObject({ verdict: 'failed', versionId, expectedReward: 0 });
      expect(counter.imageId).toBe(byKind.oracle!.imageId);
      const counterReport = parseSolutionCheckReport(counter.rewardDetail)!;
      expect(counterReport.checkedSteps).toEqual(['s2']);
      const outcome = (label: string, pass: string) => counterReport.runs.find((r) => r.ancestor?.label === label && r.pass === pass)!;
      // As it is, the ancestor finds no auth.log (only auth.log.gz): s2 fails.
      expect(outcome('generation 1', 'as-is')).toMatchObject({ outcome: 'caught' });
      expect(outcome('generation 1', 'as-is').steps.find((s) => s.stepId === 's2')?.status).toBe('failed');
      // Unwrapped, the same solution answers s2: the candidate asks nothing new there.
      expect(outcome('generation 1', 'unwrapped')).toMatchObject({ outcome: 'let-through', reward: 1 });
      expect(outcome('generation 1', 'unwrapped').why).toMatch(/answers step s2/);
      // The seed's solution counts another event: caught either way.
      expect(outcome('the seed', 'as-is')).toMatchObject({ outcome: 'caught' });
      expect(outcome('the seed', 'unwrapped')).toMatchObject({ outcome: 'caught' });
      expect(counter.error).toMatch(/generation 1 \(aaaaaaaaaaaa\), data unwrapped: answers step s2/);
      expect(counter.verifierLog).toMatch(/→ let-through/);
      expect(counter.agentLog).toMatch(/envolve unwrap: gunzip \/app\/data\/s2\/[0-9.]+\/auth\.log\.gz/);

      const nearMiss = byKind['near-miss']!;
      expect(nearMiss).toMatchObject({ verdict: 'failed', reward: 1, expectedReward: 0 });
      const report = parseSolutionCheckReport(nearMiss.rewardDetail)!;
      expect({ caught: report.caught, total: report.total }).toEqual({ caught: 1, total: 2 });
      const byFile = Object.fromEntries(report.runs.map((r) => [r.nearMiss!.file, r]));
      expect(byFile['s2.wrong-event.sh']).toMatchObject({ outcome: 'caught', reward: 0 });
      expect(byFile['s2.wrong-event.sh']!.why).toMatch(/step s2 failed: \/app\/out\/s2\.txt holds '\d+', expected '\d+'/);
      expect(byFile['s1.trailing-space.sh']).toMatchObject({ outcome: 'let-through', reward: 1 });
      expect(nearMiss.error).toMatch(/1 of 2 near misses not rejected \(mutation score 1\/2\)/);
    },
    trialLimitMs(),
  );
});
