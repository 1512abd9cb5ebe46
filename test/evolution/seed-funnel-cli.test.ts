// `envolve evolve` asks the seed funnel first, through the real CLI on a real test database: a
// trainer-gated seed the funnel has not kept under the trainer's newest checkpoint is refused
// (exit 2) with the numbers, and no lineage is made; --force needs --reason; --force --reason
// records the override on the lineage with the verdict it overrode, audits it, and evolves.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { lineageSeedFunnel, lineageSeedFunnelRefusal, SEED_FUNNEL_OVERRIDE_ACTION, seedFunnelOverrideOf } from '../../lib/evolution/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { DEFAULT_SCHEDULER_CONFIG } from '../../lib/scheduler/config.ts';
import { evolutionMs, limitMs } from '../budgets.ts';
import { storeProceduralSeed } from './helpers.ts';

const execFileAsync = promisify(execFile);
let testDb: TestDb;
let seed: string;

// One generation along length, under the CLI's default loops (3 modify rounds) from a 2-step seed.
const FORCED_RUN_MS = limitMs(evolutionMs(1, { steps: 2, lengthGrows: true }));

beforeAll(async () => {
  await ensureBaseImage({ docker: new DockerSandbox().docker, progress: () => {} });
  testDb = await createTestDb();
  seed = await storeProceduralSeed(testDb.db, 11, 'funnel-cli-seed');
  const group = (versionId: string, policyVersion: string, passes: number, createdAt: Date) =>
    testDb.db.probeGroup.create({
      data: { versionId, purpose: 'trainer', policy: 'trainer', policyVersion, size: 8, passes, completed: 8, state: 'complete', createdAt },
    });
  // An older checkpoint found the seed hard; the newest one passes it 6 times in 8.
  await group(seed, 'step-10', 2, new Date('2026-05-01T00:00:00Z'));
  await group(seed, 'step-20', 6, new Date('2026-05-02T00:00:00Z'));
});
afterAll(async () => testDb.cleanup());

function envolve(...args: string[]) {
  return spawnSync(process.execPath, ['bin/envolve.mjs', ...args], { env: { ...process.env, DATABASE_URL: testDb.url }, encoding: 'utf8' });
}

const evolveArgs = (...more: string[]) => ['evolve', seed, '--generations', '1', '--axis', 'length', ...more];

describe('envolve evolve on a seed the funnel has not kept', () => {
  it("exits 2 with the newest checkpoint's numbers and the thresholds it fails, and makes no lineage", async () => {
    const cli = envolve(...evolveArgs());
    expect(cli.status).toBe(2);
    expect(cli.stderr).toMatch(
      /^envolve: the seed funnel has not kept funnel-cli-seed under trainer checkpoint step-20: 6\/8 passes > 4\/8 \(fails the pass-rate bar\); .*nothing was evolved.*--force --reason/m,
    );
    expect(await testDb.db.lineage.count({ where: { seedVersionId: seed } })).toBe(0);
  });

  it('says the same in --json, with the code and the verdict', () => {
    const cli = envolve(...evolveArgs('--json'));
    expect(cli.status).toBe(2);
    expect(JSON.parse(cli.stdout)).toMatchObject({
      ok: false,
      error: expect.stringContaining('6/8 passes > 4/8'),
      code: 'seed_not_kept',
      details: { verdict: { kind: 'not-kept', policy: 'trainer', policyVersion: 'step-20', passes: 6, size: 8, failed: ['pass-rate'], turnsChecked: false } },
    });
  });

  it('refuses --force without --reason', async () => {
    const cli = envolve(...evolveArgs('--force'));
    expect(cli.status).toBe(2);
    expect(cli.stderr).toMatch(/^envolve: --force overrides the seed funnel and needs --reason/m);
    expect(await testDb.db.lineage.count({ where: { seedVersionId: seed } })).toBe(0);
  });

  it(
    '--force --reason records the override with the verdict, audits it, and evolves',
    async () => {
      const reason = 'the trainer run needs a long-horizon lineage from this seed';
      const { stdout } = await execFileAsync(process.execPath, ['bin/envolve.mjs', ...evolveArgs('--force', '--reason', reason, '--json')], {
        env: { ...process.env, DATABASE_URL: testDb.url },
        maxBuffer: 64 * 1024 * 1024,
        timeout: FORCED_RUN_MS,
      });
      const report = JSON.parse(stdout);
      expect(report).toMatchObject({ added: 1, seedFunnelOverride: { reason, verdict: { kind: 'not-kept', passes: 6 } } });

      const lineage = await testDb.db.lineage.findFirstOrThrow({ where: { seedVersionId: seed } });
      expect(lineage.id).toBe(report.id);
      const override = seedFunnelOverrideOf(lineage);
      expect(override).toMatchObject({ reason, demoMode: false, by: expect.stringMatching(/^cli:/), verdict: { kind: 'not-kept', policyVersion: 'step-20' } });
      const audit = await testDb.db.auditEvent.findFirstOrThrow({ where: { action: SEED_FUNNEL_OVERRIDE_ACTION, subjectId: lineage.id } });
      expect(audit).toMatchObject({ subjectType: 'lineage', actorEmail: override!.by, before: JSON.stringify({ seedFunnelOverride: null }) });
      expect(JSON.parse(audit.after!)).toEqual({ seedFunnelOverride: override });

      // Admitted from now on: continuing the lineage needs no --force. Its page shows the verdict and the override.
      expect(await lineageSeedFunnelRefusal(testDb.db, lineage.id, DEFAULT_SCHEDULER_CONFIG)).toBeNull();
      expect(await lineageSeedFunnel(testDb.db, lineage.id, DEFAULT_SCHEDULER_CONFIG)).toMatchObject({
        verdict: { kind: 'not-kept', passes: 6 },
        override: { reason },
        evolved: true,
      });
    },
    FORCED_RUN_MS + 60_000, // the run's budget, and a minute for the CLI to start and the checks after it
  );
});
