// Which versions a trainer may receive or report on: the one rule behind the task download, the
// batch and the group report. Only reviewed work goes to training: a generation's version is served
// once a reviewer approved it (approved, or released at its lineage's frontier); one awaiting review,
// sent back for changes, rejected, superseded (evolved from a rejected generation) or still being
// made is not. A lineage's seed is served (the seed funnel decides on its group), and so is a
// version outside every lineage (an operator imported it; nothing evolved it). Whatever its review,
// a version flagged as a reward hack or held out for evaluation (itself, or as a version of a
// held-out lineage) is not served.
import type { Db } from '../db/index.ts';
import { GenerationState, stateLabel } from '../states/index.ts';

export type Unservable =
  | { kind: 'unknown_version'; message: string }
  | { kind: 'flagged'; message: string }
  | { kind: 'held_out'; message: string }
  | { kind: 'rejected'; message: string; state: string }
  | { kind: 'superseded'; message: string; state: string }
  | { kind: 'unreviewed'; message: string; state: string };

// A generation in one of these states was approved by a reviewer.
const REVIEWED_STATES: readonly string[] = [GenerationState.approved, GenerationState.released];

// Generations in these states make their version unservable.
const REFUSED_STATES = [GenerationState.rejected, GenerationState.superseded] as const;
type RefusedState = (typeof REFUSED_STATES)[number];

export interface ServabilityFacts {
  id: string;
  compromisedAt: Date | null;
  heldOutSet: string | null; // the version's own set, or that of a held-out lineage it belongs to
  refusedState: RefusedState | null; // a generation with this version was rejected or superseded
  // The state of the newest generation with this version when no reviewer approved any of them and
  // the version is no lineage's seed; null otherwise (approved, a seed, or outside every lineage).
  unreviewedState?: string | null;
}

// The rule itself, on facts read in bulk or one at a time: the first reason that applies.
export function refusalOf(facts: ServabilityFacts): Unservable | null {
  const { id } = facts;
  if (facts.compromisedAt) return { kind: 'flagged', message: `environment version ${id} is flagged as reward-hackable: it is not trained on` };
  if (facts.heldOutSet !== null)
    return { kind: 'held_out', message: `environment version ${id} is held out (set "${facts.heldOutSet}"): it is not trained on` };
  if (facts.refusedState === GenerationState.rejected)
    return { kind: 'rejected', state: facts.refusedState, message: `environment version ${id} was rejected in review (state: rejected): it is not trained on` };
  if (facts.refusedState === GenerationState.superseded) {
    return {
      kind: 'superseded',
      state: facts.refusedState,
      message: `environment version ${id} was evolved from a rejected generation (state: superseded): it is not trained on`,
    };
  }
  if (facts.unreviewedState) {
    const state = facts.unreviewedState;
    return {
      kind: 'unreviewed',
      state,
      message: `environment version ${id} is ${stateLabel(state)} (state: ${state}): only versions a reviewer approved are trained on`,
    };
  }
  return null;
}

// The facts of many versions in five queries; unknown ids are absent from the map.
export async function servabilityFacts(db: Db, ids: readonly string[]): Promise<Map<string, ServabilityFacts>> {
  const [versions, heldOutLineages, refused, generations, seeds] = await Promise.all([
    db.environmentVersion.findMany({ where: { id: { in: [...ids] } }, select: { id: true, heldOutSet: true, compromisedAt: true } }),
    // Held-out lineages are few: all of them, with their versions, rather than a join per id.
    db.lineage.findMany({
      where: { heldOutSet: { not: null } },
      select: { heldOutSet: true, seedVersionId: true, generations: { where: { versionId: { not: null } }, select: { versionId: true } } },
    }),
    db.generation.findMany({ where: { versionId: { in: [...ids] }, state: { in: [...REFUSED_STATES] } }, select: { versionId: true, state: true } }),
    db.generation.findMany({ where: { versionId: { in: [...ids] } }, select: { versionId: true, state: true, updatedAt: true } }),
    db.lineage.findMany({ where: { seedVersionId: { in: [...ids] } }, select: { seedVersionId: true } }),
  ]);
  const seedIds = new Set(seeds.map((l) => l.seedVersionId));
  const reviewed = new Set(generations.filter((g) => REVIEWED_STATES.includes(g.state)).map((g) => g.versionId as string));
  const unreviewedState = new Map<string, { state: string; at: Date }>();
  for (const g of generations) {
    const id = g.versionId as string;
    if (seedIds.has(id) || reviewed.has(id)) continue;
    const seen = unreviewedState.get(id);
    if (!seen || seen.at < g.updatedAt) unreviewedState.set(id, { state: g.state, at: g.updatedAt });
  }
  const lineageSet = new Map<string, string>();
  for (const l of heldOutLineages) {
    for (const id of [l.seedVersionId, ...l.generations.map((g) => g.versionId as string)]) lineageSet.set(id, l.heldOutSet as string);
  }
  const refusedState = new Map<string, RefusedState>();
  for (const g of refused) {
    // Rejected says more than superseded: it is the reason the branch is not served.
    if (refusedState.get(g.versionId as string) !== GenerationState.rejected) refusedState.set(g.versionId as string, g.state as RefusedState);
  }
  return new Map(
    versions.map((v) => [
      v.id,
      {
        id: v.id,
        compromisedAt: v.compromisedAt,
        heldOutSet: v.heldOutSet ?? lineageSet.get(v.id) ?? null,
        refusedState: refusedState.get(v.id) ?? null,
        unreviewedState: unreviewedState.get(v.id)?.state ?? null,
      },
    ]),
  );
}

/** Why a trainer may not receive or report on this version, or null when it may. */
export async function unservableReason(db: Db, versionId: string): Promise<Unservable | null> {
  const facts = (await servabilityFacts(db, [versionId])).get(versionId);
  if (!facts) return { kind: 'unknown_version', message: `environment version ${versionId} not found` };
  return refusalOf(facts);
}
