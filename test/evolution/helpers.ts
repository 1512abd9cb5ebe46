// Shared set-up of the evolution tests: a migrated database, the Docker sandbox, and
// procedural seeds stored the way `envolve env import` stores a shipped seed.
import type { Db } from '../../lib/db/client.ts';
import { storeBundle } from '../../lib/env/store.ts';
import type { EvolutionContext } from '../../lib/evolution/index.ts';
import { newSeedSequence, renderEnvironment } from '../../lib/synth/procedural/index.ts';
import type { Sandbox } from '../../lib/sandbox/index.ts';
import type { Synthesiser } from '../../lib/synth/types.ts';
import { difficulty, REFERENCE_TABLE, tablePriors } from '../../lib/difficulty/index.ts';
import { asksOfItsScenario, DOMAIN_NAMES, misfit, SKILL_NAMES, skillNamed } from '../../lib/synth/procedural/catalogue.ts';

export async function storeProceduralSeed(db: Db, seed: number, name: string, steps = 2): Promise<string> {
  const sequence = newSeedSequence(seed, { steps });
  const bundle = renderEnvironment(sequence, { seed, name });
  return storeBundle(db, bundle, { source: 'import', metadata: { kind: 'seed', generation: 0, parents: [], sequence } });
}

// Cost of one step under the shipped reference, as the proposer ranks names.
function stepD(scenario: string, skill: string): number {
  return difficulty({ steps: [{ id: 's1', scenario, skill, dependsOn: [] }] }, tablePriors(REFERENCE_TABLE)).total;
}

// A 2-step seed whose names sit a few levels below the top of the catalogue on both the scenario
// and the skill axis, so a lineage reaches where the catalogue ends within a few generations. Its
// skills ask something of their scenario (a scenario edit changes their question) and stand alone
// (none computes with an earlier answer).
export async function storeNearTopSeed(db: Db, name: string, below = 1): Promise<string> {
  const fits = (domain: string, k: string) => misfit(domain, k) === null && asksOfItsScenario(k) && !skillNamed(k).skill.computesWithUpstream;
  const steps = (['web-access-log', 'dns-zone'] as const).map((domain, i) => {
    const skill = [...SKILL_NAMES].filter((k) => fits(domain, k)).sort((a, b) => stepD(domain, b) - stepD(domain, a))[below]!;
    // A scenario edit must change the domain: a domain with `below + 1` harder ones above it.
    const scenario = [...DOMAIN_NAMES].filter((n) => misfit(n, skill) === null).sort((a, b) => stepD(b, skill) - stepD(a, skill))[below + 1]!;
    return { id: `s${i + 1}`, scenario, skill, dependsOn: i === 0 ? [] : ['s1'] };
  });
  const sequence = { steps };
  const bundle = renderEnvironment(sequence, { seed: 5, name });
  return storeBundle(db, bundle, { source: 'import', metadata: { kind: 'seed', generation: 0, parents: [], sequence } });
}

export function context(db: Db, sandbox: Sandbox, synthesiser: Synthesiser, log: string[] = []): EvolutionContext {
  return { db, sandbox, synthesiser, progress: (m) => log.push(m) };
}
