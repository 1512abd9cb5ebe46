// What a trainer's API token released, and taking it back. A token that leaked, or a trainer that
// reported bad rewards, may have released generations through its groups; revoking the token can
// withdraw them. The revoke flow lists the releases (releasesOfToken) and asks before it withdraws
// (withdrawTokenReleases): the token's complete groups become withdrawn, so they never gate again,
// and in each lineage everything from the first generation one of them released goes back to
// approved, as a change of gating policy does (lineage-gate.ts). Then each frontier walks forward
// again on the groups that remain. Every withdrawn generation and the withdrawal itself are audited.
import type { AuditActor } from '../audit/index.ts';
import { recordAudit } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { NotFoundError } from '../errors/index.ts';
import { changeGenerationState } from '../evolution/index.ts';
import { ProbeGroupState } from '../gate/index.ts';
import { GenerationState } from '../states/index.ts';
import { forgetTrainablePool } from './batch.ts';
import type { SchedulerConfig } from './config.ts';
import { advanceLineage, type AdvanceResult } from './frontier.ts';

export interface TokenRelease {
  generationId: string;
  lineageId: string;
  lineageName: string;
  number: number;
  groupId: string; // the token's group that released it
}

/** The generations still released by a group this token reported, by lineage and number. */
export async function releasesOfToken(db: Db, tokenId: string): Promise<TokenRelease[]> {
  const groups = await db.probeGroup.findMany({ where: { tokenId, state: ProbeGroupState.complete }, select: { id: true } });
  if (groups.length === 0) return [];
  const released = await db.generation.findMany({
    where: { state: GenerationState.released, releasedByGroupId: { in: groups.map((g) => g.id) } },
    select: { id: true, lineageId: true, number: true, releasedByGroupId: true, lineage: { select: { name: true } } },
    orderBy: [{ lineageId: 'asc' }, { number: 'asc' }],
  });
  return released.map((g) => ({
    generationId: g.id,
    lineageId: g.lineageId,
    lineageName: g.lineage.name,
    number: g.number,
    groupId: g.releasedByGroupId as string,
  }));
}

/** "lineage-a G1, G2; lineage-b G3": what a confirmation names. */
export function tokenReleasesText(releases: TokenRelease[]): string {
  const byLineage = new Map<string, number[]>();
  for (const r of releases) byLineage.set(r.lineageName, [...(byLineage.get(r.lineageName) ?? []), r.number]);
  return [...byLineage].map(([name, numbers]) => `${name} ${numbers.map((n) => `G${n}`).join(', ')}`).join('; ');
}

export interface TokenWithdrawal {
  tokenId: string;
  groupsWithdrawn: number;
  withdrawn: { lineageId: string; numbers: number[] }[]; // every generation sent back to approved
  advanced: AdvanceResult[];
}

/**
 * Withdraws the token's groups and what they released. The caller confirmed the list that
 * releasesOfToken gave; a token with no releases withdraws its groups only.
 */
export async function withdrawTokenReleases(db: Db, actor: AuditActor, tokenId: string, config: SchedulerConfig): Promise<TokenWithdrawal> {
  const token = await db.apiToken.findUnique({ where: { id: tokenId }, select: { id: true, name: true, userId: true } });
  if (!token) throw new NotFoundError(`no API token ${tokenId}`);
  const releases = await releasesOfToken(db, tokenId);
  const firstByLineage = new Map<string, number>();
  for (const r of releases) firstByLineage.set(r.lineageId, Math.min(r.number, firstByLineage.get(r.lineageId) ?? Infinity));
  const reason = `the API token "${token.name}" whose group released it was revoked and its releases withdrawn`;
  const result = await db.$transaction(async (tx) => {
    const { count } = await tx.probeGroup.updateMany({ where: { tokenId, state: ProbeGroupState.complete }, data: { state: ProbeGroupState.withdrawn } });
    const withdrawn: TokenWithdrawal['withdrawn'] = [];
    for (const [lineageId, first] of firstByLineage) {
      // Every release after the first one the token made stood on it: all go back to be decided.
      const generations = await tx.generation.findMany({
        where: { lineageId, state: GenerationState.released, number: { gte: first } },
        orderBy: { number: 'asc' },
      });
      for (const generation of generations) {
        await changeGenerationState(tx, generation, {
          to: GenerationState.approved,
          data: { releasedByGroupId: null, releasedByPolicy: null, releaseRule: null },
          audit: { actor, action: 'generation.withdraw', after: { reason, tokenId } },
        });
      }
      await tx.lineage.update({ where: { id: lineageId }, data: { frontier: first - 1 } });
      withdrawn.push({ lineageId, numbers: generations.map((g) => g.number) });
    }
    await recordAudit(tx, {
      actor,
      action: 'api-token.withdraw-releases',
      subjectType: 'user',
      subjectId: token.userId,
      after: { tokenId, name: token.name, groupsWithdrawn: count, withdrawn },
    });
    return { groupsWithdrawn: count, withdrawn };
  });
  forgetTrainablePool(db);
  const advanced: AdvanceResult[] = [];
  for (const lineageId of firstByLineage.keys()) advanced.push(await advanceLineage(db, lineageId, config));
  return { tokenId, ...result, advanced };
}
