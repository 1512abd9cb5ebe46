// Revoking a trainer's token with its releases: the list a confirmation names, the withdrawal of
// its groups and of every generation they released, and the frontier walking again on the groups
// of other tokens.
import { describe, expect } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { fileDbTest } from '../../test/fixtures/test.ts';
import { createApiToken, verifyApiToken } from '../auth/api-tokens.ts';
import { createUser } from '../auth/users.ts';
import type { Db } from '../db/client.ts';
import { GenerationState } from '../states/index.ts';
import {
  releasesOfToken,
  reportTrainerGroup,
  schedulerConfigFrom,
  tokenReleasesText,
  trainerReporterOf,
  trainerReportSchema,
  withdrawTokenReleases,
} from './index.ts';

const config = schedulerConfigFrom({});
const LEAD = { id: null, email: 'lead@releases.test' };

async function reporter(db: Db, email: string) {
  const user = await createUser(db, { email, name: email, role: 'trainer', password: 'correct horse battery staple' });
  const { token } = await createApiToken(db, user.id, `${email} box`);
  return trainerReporterOf((await verifyApiToken(db, token))!);
}

async function lineageOf(db: Db, name: string, approved: number) {
  const seed = await seedEnvironment(db, { name: `${name} seed` });
  const lineage = await db.lineage.create({
    data: { name, seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1, probePolicy: 'trainer' },
  });
  const versions = [seed];
  for (let n = 1; n <= approved; n++) {
    const versionId = await seedEnvironment(db, { name: `${name} g${n}` });
    await db.generation.create({
      data: { lineageId: lineage.id, number: n, parentVersionId: versions.at(-1)!, versionId, axis: 'length', effort: 'low', state: GenerationState.approved },
    });
    versions.push(versionId);
  }
  return { lineage, versions };
}

const group = (versionId: string, passes: number) =>
  trainerReportSchema.parse({ versionId, rewards: Array.from({ length: 8 }, (_, i) => (i < passes ? 1 : 0)), policyVersion: 'step-1' });

describe('revoking a token with its releases', () => {
  fileDbTest("lists what the token's groups released, withdraws them and its groups, and re-walks on other tokens' groups", async ({ db }) => {
    const leaked = await reporter(db, 'leaked@releases.test');
    const honest = await reporter(db, 'honest@releases.test');
    const { lineage, versions } = await lineageOf(db, 'leaky lineage', 2);
    const report = (who: typeof leaked, versionId: string, passes: number) =>
      reportTrainerGroup(db, group(versionId, passes), config, who, { idempotencyTtlMs: 3_600_000 });
    await report(leaked, versions[0]!, 7); // releases G1
    await report(leaked, versions[1]!, 8); // releases G2
    await report(honest, versions[0]!, 6); // on G0 after it moved on: releases nothing now

    const releases = await releasesOfToken(db, leaked.tokenId!);
    expect(releases.map((r) => r.number)).toEqual([1, 2]);
    expect(tokenReleasesText(releases)).toBe('leaky lineage G1, G2');
    expect(await releasesOfToken(db, honest.tokenId!)).toEqual([]);

    const withdrawal = await withdrawTokenReleases(db, LEAD, leaked.tokenId!, config);
    expect(withdrawal).toMatchObject({ groupsWithdrawn: 2, withdrawn: [{ lineageId: lineage.id, numbers: [1, 2] }] });
    // The honest 6/8 on G0 now releases G1 again; G1 waits, for the leaked group on it no longer counts.
    expect(withdrawal.advanced[0]!.steps[0]).toMatchObject({ kind: 'released', generation: 1 });
    expect(withdrawal.advanced[0]!.steps[1]).toMatchObject({ kind: 'waiting', generation: 1 });
    const generations = await db.generation.findMany({ where: { lineageId: lineage.id }, orderBy: { number: 'asc' } });
    expect(generations.map((g) => g.state)).toEqual([GenerationState.released, GenerationState.approved]);
    const g1Group = await db.probeGroup.findUniqueOrThrow({ where: { id: generations[0]!.releasedByGroupId! } });
    expect(g1Group.tokenId).toBe(honest.tokenId);
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.id } })).frontier).toBe(1);
    expect(await db.probeGroup.count({ where: { tokenId: leaked.tokenId, state: 'withdrawn' } })).toBe(2);

    const audit = await db.auditEvent.findMany({
      where: { action: { in: ['generation.withdraw', 'api-token.withdraw-releases'] } },
      orderBy: { createdAt: 'asc' },
    });
    expect(audit.map((e) => e.action)).toEqual(['generation.withdraw', 'generation.withdraw', 'api-token.withdraw-releases']);
    expect(JSON.parse(audit[2]!.after ?? '{}')).toMatchObject({ tokenId: leaked.tokenId, groupsWithdrawn: 2 });
    // The release's audit entry names who reported the releasing group.
    const release = await db.auditEvent.findFirstOrThrow({
      where: { action: 'generation.release', subjectId: generations[0]!.id },
      orderBy: { createdAt: 'desc' },
    });
    expect(JSON.parse(release.after ?? '{}')).toMatchObject({ reportedBy: { userId: honest.userId, tokenId: honest.tokenId } });
  });
});
