import { describe, expect, it } from 'vitest';
import { bundleFile, type TaskBundle } from '../../bundle/bundle.ts';
import { validateBundle } from '../../env/validate-bundle.ts';
import { parseTaskConfig } from '../../bundle/task-config.ts';
import type { Sequence } from '../../sequence/types.ts';
import { skillParts } from '../../difficulty/index.ts';
import { BASE_SKILL_NAMES, DOMAIN_NAMES, misfit, SCENARIO_NAMES, SKILL_NAMES, UPSTREAM_SKILL_NAMES } from './catalogue.ts';
import { readProceduralMetadata } from './metadata.ts';
import { renderEnvironment, renderEnvironmentWithSteps } from './render.ts';
import { newSeedSequence } from './seed-sequence.ts';

const chain: Sequence = {
  steps: [
    { id: 's1', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: [] },
    { id: 's2', scenario: 'payments-ledger', skill: 'sqlite-sql', dependsOn: ['s1'] },
    { id: 's3', scenario: 'kubernetes-events', skill: 'jq-query', dependsOn: ['s2'] },
    { id: 's4', scenario: 'dns-zone', skill: 'git-history', dependsOn: ['s1', 's3'] },
  ],
};

const text = (bundle: TaskBundle, path: string): string => bundleFile(bundle, path)?.content.toString('utf8') ?? '';

describe('catalogue', () => {
  it('has exactly the agreed names: 16 domains × 4 layouts × 5 noises, 46 skills × 3 deliveries', () => {
    expect(DOMAIN_NAMES).toHaveLength(16);
    expect(BASE_SKILL_NAMES).toHaveLength(46);
    expect(new Set(SCENARIO_NAMES).size).toBe(320);
    expect(new Set(SKILL_NAMES).size).toBe(138);
    expect(SCENARIO_NAMES).toContain('web-access-log+csv+crlf');
    expect(SKILL_NAMES).toContain('awk-fields+gz');
  });
});

describe('renderEnvironment', () => {
  it('is byte-identical for the same sequence and seed, and differs for another seed', () => {
    const a = renderEnvironment(chain, { seed: 42, name: 'chain' });
    const b = renderEnvironment(chain, { seed: 42, name: 'chain' });
    const c = renderEnvironment(chain, { seed: 43, name: 'chain' });
    expect(a).toEqual(b);
    expect(text(a, 'tests/expected.json')).not.toBe(text(c, 'tests/expected.json'));
  });

  it('renders a valid Harbor bundle with one instruction section per step and the sequence in task.toml', () => {
    const bundle = renderEnvironment(chain, { seed: 1, name: 'chain' });
    expect(validateBundle(bundle).filter((p) => p.severity === 'error')).toEqual([]);
    const config = parseTaskConfig(text(bundle, 'task.toml'));
    expect(config.ok && config.config.environment).toMatchObject({ cpus: 1, memory_mb: 1024, storage_mb: 1024, allow_internet: false });
    expect(readProceduralMetadata(bundle)).toEqual({ seed: 1, sequence: chain, variants: {} });
    expect(text(bundle, 'instruction.md').match(/^## Step \d/gm)).toHaveLength(4);
    expect(bundleFile(bundle, 'solution/solve.sh')?.executable).toBe(true);
    expect(bundleFile(bundle, 'tests/test.sh')?.executable).toBe(true);
    const expected = JSON.parse(text(bundle, 'tests/expected.json')).steps;
    expect(expected.map((s: { id: string }) => s.id)).toEqual(['s1', 's2', 's3', 's4']);
  });

  it('gives a dependent step one dataset per candidate, the true one named by the upstream answer', () => {
    const { bundle, steps } = renderEnvironmentWithSteps(chain, { seed: 5, name: 'chain' });
    const s1Token = steps[0]!.answer.split(/\s/)[0]!;
    const s2Dirs = steps[1]!.datasets.map((d) => d.dir);
    expect(s2Dirs).toHaveLength(3);
    expect(s2Dirs).toContain(`s2/${s1Token}`);
    const s4Token = `${s1Token}_${steps[2]!.answer.split(/\s/)[0]}`;
    expect(steps[3]!.datasets.map((d) => d.dir)).toContain(`s4/${s4Token}`);
    // The solution reads the upstream answer at run time rather than embedding it.
    expect(text(bundle, 'solution/solve.sh')).toContain(`d="/app/data/s2/$(awk 'NR == 1 { print $1; exit }' /app/out/s1.txt)"`);
    expect(text(bundle, 'instruction.md')).toContain('/app/out/s1.txt');
  });

  it('renders every scenario with every skill it fits, and refuses a misfit with the reason', () => {
    expect(() =>
      renderEnvironment({ steps: [{ id: 's1', scenario: 'web-access-log+csv', skill: 'jq-query', dependsOn: [] }] }, { seed: 1, name: 'x' }),
    ).toThrow(/jq-query delivers its own column export, so the csv layout/);
    // Every scenario with three plain skills in turn, and every skill with three domains in
    // turn: each name is rendered several times without the 320 × 66 product.
    const pairs = [
      ...SCENARIO_NAMES.flatMap((scenario, i) => [0, 1, 2].map((k) => [scenario, BASE_SKILL_NAMES[(3 * i + k) % BASE_SKILL_NAMES.length]!] as const)),
      ...SKILL_NAMES.flatMap((skill, i) => [0, 1, 2].map((k) => [DOMAIN_NAMES[(3 * i + k) % DOMAIN_NAMES.length]!, skill] as const)),
    ];
    for (const [scenario, skill] of pairs.filter(([scenario, skill]) => misfit(scenario, skill) === null)) {
      const sequence = {
        steps: [
          // A skill computing with its upstream answer needs one that answers an integer first.
          { id: 's1', scenario, skill: UPSTREAM_SKILL_NAMES.includes(skillParts(skill)!.base) ? 'date-arithmetic' : skill, dependsOn: [] },
          { id: 's2', scenario, skill, dependsOn: ['s1'] },
        ],
      };
      const { bundle, steps } = renderEnvironmentWithSteps(sequence, { seed: 9, name: 'matrix' });
      for (const step of steps) expect(step.answer.trim(), `${scenario} × ${skill}`).not.toBe('');
      expect(bundle.files.some((f) => f.path.startsWith('environment/data/s2/'))).toBe(true);
      expect(
        validateBundle(bundle).filter((p) => p.severity === 'error'),
        `${scenario} × ${skill}`,
      ).toEqual([]);
    }
  });

  it('injects the requested fault and nothing else', () => {
    const good = renderEnvironment(chain, { seed: 3, name: 'chain' });
    const wrong = renderEnvironment(chain, { seed: 3, name: 'chain', fault: 'wrong-solution' });
    const lenient = renderEnvironment(chain, { seed: 3, name: 'chain', fault: 'lenient-tests' });
    const changed = (other: TaskBundle) => other.files.filter((f) => !f.content.equals(bundleFile(good, f.path)!.content)).map((f) => f.path);
    expect(changed(wrong)).toEqual(['solution/solve.sh']);
    expect(changed(lenient)).toEqual(['tests/test.sh']);
  });

  it('makes seed sequences of one or two chained steps', () => {
    expect(newSeedSequence(1).steps).toHaveLength(1);
    const two = newSeedSequence(2, { steps: 2 });
    expect(two.steps.map((s) => s.dependsOn)).toEqual([[], ['s1']]);
    expect(newSeedSequence(2, { steps: 2 })).toEqual(two);
  });
});
