// Fresh seed sequences for new lineages: one or two steps, the second consuming the first, over
// plain domains and skills (the axes bring in layouts, noise and deliveries).
import type { Sequence } from '../../sequence/index.ts';
import { BASE_SKILL_NAMES, DOMAIN_NAMES, UPSTREAM_SKILL_NAMES } from './catalogue.ts';
import { createRng, hashSeed } from './rng.ts';

export function newSeedSequence(seed: number, options: { steps: number } = { steps: 1 }): Sequence {
  const rng = createRng(hashSeed(seed, 'seed-sequence'));
  const scenarios = rng.shuffle(DOMAIN_NAMES);
  // A seed's steps pick data by name; computing with an earlier answer is what the length axis adds.
  const skills = rng.shuffle(BASE_SKILL_NAMES.filter((name) => !UPSTREAM_SKILL_NAMES.includes(name)));
  return {
    steps: Array.from({ length: options.steps }, (_, i) => ({
      id: `s${i + 1}`,
      scenario: scenarios[i]!,
      skill: skills[i]!,
      dependsOn: i === 0 ? [] : [`s${i}`],
    })),
  };
}
