// Near misses in a bundle: for every step, the typical wrong ways an agent solves it, each written
// as a complete solution (solution/near-misses/<step>.<mistake>.sh) in which only that step's
// fragment carries the mistake. Tests that reward any of them are too lenient; the near-miss
// validator runs them and each must score 0.
import { NEAR_MISS_DIR } from '../../env/index.ts';
import { type BundleFile } from '../../bundle/index.ts';
import type { Scenario } from './scenario.ts';
import type { NearMiss, Skill, StepParams } from './skill.ts';

const MISTAKE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// A skill's near misses for one step's question. A catalogue skill without any would let its
// steps through unchecked, so that is an error, not an empty list.
export function skillNearMisses(skill: Skill, scenario: Scenario, params: StepParams): NearMiss[] {
  if (!skill.nearMisses) throw new Error(`skill ${skill.name} has no near misses: every procedural skill must say how an agent typically gets it wrong`);
  const misses = skill.nearMisses(scenario, params);
  if (misses.length === 0) throw new Error(`skill ${skill.name} gave no near misses for ${scenario.name}`);
  const names = new Set<string>();
  for (const m of misses) {
    if (!MISTAKE_NAME.test(m.name)) throw new Error(`near miss "${m.name}" of ${skill.name} is not a kebab-case name`);
    if (names.has(m.name)) throw new Error(`skill ${skill.name} names two near misses "${m.name}"`);
    if (m.solve === skill.solve(scenario, params)) throw new Error(`near miss ${m.name} of ${skill.name} is the reference solution itself`);
    names.add(m.name);
  }
  return misses;
}

export interface StepFragments {
  step: { id: string };
  solve: string;
  nearMisses: NearMiss[];
}

export const nearMissPath = (stepId: string, mistake: string): string => `${NEAR_MISS_DIR}/${stepId}.${mistake}.sh`;

// One executable file per near miss of every step: the solution `script` writes from the steps'
// fragments, with that one step's fragment swapped for the near miss.
export function nearMissFiles<S extends StepFragments>(steps: readonly S[], script: (steps: S[]) => string): BundleFile[] {
  const files = steps.flatMap((step, i) =>
    step.nearMisses.map((miss) => {
      const swapped = steps.map((s, j) => (j === i ? { ...s, solve: miss.solve } : s));
      const [shebang, ...rest] = script(swapped).split('\n');
      const note = `# NEAR MISS, must score 0: step ${step.step.id} solved with the mistake "${miss.name}": ${miss.why}`;
      return { path: nearMissPath(step.step.id, miss.name), content: Buffer.from([shebang, note, ...rest].join('\n'), 'utf8'), executable: true };
    }),
  );
  const paths = new Set(files.map((f) => f.path));
  if (paths.size !== files.length) throw new Error('two near misses would be written to the same file');
  return files;
}
