// `envolve lineage show` through the real CLI on a real test database (no Docker): besides the
// generations it prints the release gate — whose groups count, the rule with every number labelled,
// the gating policy's newest checkpoint, what each release waits for — and the seed funnel override
// recorded on the lineage, in text and in --json. One lineage is gated by a trainer whose newest
// checkpoint's group on the seed is below the rule and whose seed evolved under an override; the
// other is probed by an endpoint policy under a rule of its own, with no group and no override.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { seedLineage, type LineageFixture } from '../../test/fixtures/lineage-rows.ts';
import { lineageSeedFunnel, recordSeedFunnelOverride, seedFunnelOverrideOf } from '../../lib/evolution/index.ts';
import { DEFAULT_SCHEDULER_CONFIG } from '../../lib/scheduler/config.ts';
import { GenerationState } from '../../lib/states/index.ts';

let testDb: TestDb;
let trainerGated: LineageFixture;
let probeGated: LineageFixture;
const REASON = 'the trainer run needs a long-horizon lineage from this seed';
const OVERRIDDEN_BY = 'lead@gate.test';

beforeAll(async () => {
  testDb = await createTestDb();
  const db = testDb.db;
  const approved = () => GenerationState.approved;
  trainerGated = await seedLineage(db, { name: 'gate-shown', generations: 2, attempts: 1, stateOf: approved, columns: { probePolicy: 'trainer' } });
  const group = (policyVersion: string, passes: number, createdAt: Date) =>
    db.probeGroup.create({
      data: {
        versionId: trainerGated.seedVersionId,
        purpose: 'trainer',
        policy: 'trainer',
        policyVersion,
        size: 8,
        passes,
        completed: 8,
        state: 'complete',
        createdAt,
      },
    });
  // An older checkpoint's group would release; the newest checkpoint's is below the rule.
  await group('step-100', 7, new Date('2026-05-01T00:00:00Z'));
  await group('step-120', 5, new Date('2026-05-02T00:00:00Z'));
  const funnel = await lineageSeedFunnel(db, trainerGated.lineageId, DEFAULT_SCHEDULER_CONFIG);
  await recordSeedFunnelOverride(db, { id: null, email: OVERRIDDEN_BY }, trainerGated.lineageId, { reason: REASON, verdict: funnel!.verdict });

  probeGated = await seedLineage(db, { name: 'probe-shown', generations: 1, attempts: 1, stateOf: approved, columns: { probePolicy: 'openai' } });
  await db.lineage.update({ where: { id: probeGated.lineageId }, data: { releaseRate: 0.7, minGroup: 10, timeoutReward: 0.25 } });
});
afterAll(async () => testDb.cleanup());

// The scheduler's defaults pinned, so the rule printed for a lineage without its own does not follow the environment.
function envolve(...args: string[]) {
  const cli = spawnSync(process.execPath, ['bin/envolve.mjs', ...args], {
    env: {
      ...process.env,
      DATABASE_URL: testDb.url,
      ENVOLVE_PROBE_SIZE: '8',
      ENVOLVE_MIN_GROUP: '8',
      ENVOLVE_RELEASE_RATE: '0.75',
      ENVOLVE_TIMEOUT_REWARD: '0',
    },
    encoding: 'utf8',
  });
  expect(cli.stderr).not.toMatch(/^envolve: /m);
  expect(cli.status).toBe(0);
  return cli.stdout;
}

describe('envolve lineage show: a trainer-gated lineage whose seed evolved under an override', () => {
  it('prints the rule, the newest checkpoint, what each release waits for and the override', async () => {
    const stored = seedFunnelOverrideOf(await testDb.db.lineage.findUniqueOrThrow({ where: { id: trainerGated.lineageId } }));
    const text = envolve('lineage', 'show', trainerGated.lineageId);
    expect(text).toContain(
      'release gate: trainer groups your trainer reports, of at least 8 rollouts; release at ≥ 6/8 passes (release rate 0.75, the same rate for a larger group); a timed-out rollout scores reward 0',
    );
    expect(text).toContain('newest trainer checkpoint: step-120 (first reported 2026-05-02T00:00:00.000Z; only its groups count)');
    expect(text).toContain("frontier: generation 0 (the seed); the next release waits for: G0's group 5/8 (trainer checkpoint step-120) is below 0.75");
    expect(text).toContain("  generation 1 waits: G0's group 5/8 (trainer checkpoint step-120) is below 0.75");
    expect(text).toContain('  generation 2 waits: waits for G1 to be released first');
    expect(text).toContain('seed funnel (not-kept): the seed funnel has not kept gate-shown-seed under trainer checkpoint step-120: 5/8 passes > 4/8');
    expect(text).toMatch(
      new RegExp(
        `^seed funnel override: by ${OVERRIDDEN_BY} at ${stored!.at}: "${REASON}" \\(the funnel then said: the seed funnel has not kept gate-shown-seed under trainer checkpoint step-120: 5/8 passes > 4/8`,
        'm',
      ),
    );
  });

  it('says the same in --json, next to the report', () => {
    const shown = JSON.parse(envolve('lineage', 'show', trainerGated.lineageId, '--json'));
    expect(shown).toMatchObject({
      id: trainerGated.lineageId,
      generations: [{ number: 1 }, { number: 2 }],
      gate: {
        lineageId: trainerGated.lineageId,
        rule: { policy: 'trainer', releaseRate: 0.75, minGroup: 8, timeoutReward: 0, demoMode: false },
        groups: { source: 'trainer', size: 8, releaseAt: 6 },
        description: expect.stringContaining('release at ≥ 6/8 passes'),
        newestCheckpoint: { version: 'step-120', firstReported: '2026-05-02T00:00:00.000Z' },
        frontier: 0,
        waits: {
          frontier: "G0's group 5/8 (trainer checkpoint step-120) is below 0.75",
          generations: [
            { generation: 1, reason: "G0's group 5/8 (trainer checkpoint step-120) is below 0.75" },
            { generation: 2, reason: 'waits for G1 to be released first' },
          ],
        },
      },
      seedFunnel: {
        verdict: { kind: 'not-kept', policy: 'trainer', policyVersion: 'step-120', passes: 5, size: 8 },
        override: { by: OVERRIDDEN_BY, reason: REASON, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), verdict: { kind: 'not-kept', passes: 5 } },
        evolved: true,
      },
    });
  });
});

describe('envolve lineage show: a probe-gated lineage with a rule of its own and no override', () => {
  it('prints its rule, no checkpoint yet, the probe it waits for and no override', () => {
    const text = envolve('lineage', 'show', probeGated.lineageId);
    expect(text).toContain(
      'release gate: openai probes of 10 rollouts (run by Envolve); release at ≥ 7/10 passes (release rate 0.7); a timed-out rollout scores reward 0.25',
    );
    expect(text).toContain('newest openai model version: none yet (no complete openai group)');
    expect(text).toContain('frontier: generation 0 (the seed); the next release waits for: waiting for a openai probe of G0');
    expect(text).toContain('  generation 1 waits: waiting for a openai probe of G0');
    expect(text).toMatch(/^seed funnel override: none recorded$/m);
  });

  it('says the same in --json: no checkpoint, no override', () => {
    const shown = JSON.parse(envolve('lineage', 'show', probeGated.lineageId, '--json'));
    expect(shown).toMatchObject({
      gate: {
        rule: { policy: 'openai', releaseRate: 0.7, minGroup: 10, timeoutReward: 0.25 },
        groups: { source: 'probe', size: 10, releaseAt: 7 },
        newestCheckpoint: null,
        frontier: 0,
        waits: { frontier: 'waiting for a openai probe of G0', generations: [{ generation: 1, reason: 'waiting for a openai probe of G0' }] },
      },
      seedFunnel: { override: null, evolved: true },
    });
  });
});

describe('envolve lineage show on an unknown lineage', () => {
  it('exits 1 with not_found in --json, showing no gate', () => {
    const cli = spawnSync(process.execPath, ['bin/envolve.mjs', 'lineage', 'show', 'no-such-lineage', '--json'], {
      env: { ...process.env, DATABASE_URL: testDb.url },
      encoding: 'utf8',
    });
    expect(cli.status).toBe(1);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: false, code: 'not_found', error: 'lineage no-such-lineage not found' });
  });
});
