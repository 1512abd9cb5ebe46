// The built-in rubric checks on real bundles: the shipped examples and every procedural domain ×
// skill pass; a misspelt instruction ("ledger entrys"), a solve.sh that echoes the answer, and tests
// that read the solution fail, each naming where.
import { describe, expect, it } from 'vitest';
import type { TaskBundle } from '../../bundle/index.ts';
import { BASE_SKILL_NAMES, DOMAIN_NAMES, SCENARIO_NAMES, SKILL_NAMES, UPSTREAM_SKILL_NAMES, misfit } from '../../synth/procedural/catalogue.ts';
import { skillParts } from '../../difficulty/index.ts';
import { renderEnvironment } from '../../synth/procedural/render.ts';
import { renderChained } from '../../synth/procedural/render-chain.ts';
import { importedSequence } from '../../synth/procedural/imported.ts';
import type { Step } from '../../sequence/index.ts';
import { exampleBundles, withFiles } from '../../../test/rubric/fixtures.ts';
import { printedAnswersCheck } from './printed-answers.ts';
import { BUILTIN_CHECKS } from './registry.ts';
import { misspellings, proseSources, spellingCheck, wordsToCheck } from './spelling.ts';
import { testsReadSolutionCheck } from './tests-read-solution.ts';

const text = (bundle: TaskBundle, path: string) => bundle.files.find((f) => f.path === path)!.content.toString('utf8');
const seedLedger = async () => (await exampleBundles()).find((b) => b.name === 'seed-ledger-sql')!;

// Every domain with every base skill (plain delivery), every composed scenario (layouts and noises)
// with one skill, every delivery of every skill over a few domains, and every skill as a chained
// second step: every template the renderer writes instruction text from.
function proceduralSequences(): { label: string; steps: Step[] }[] {
  // A skill computing with an earlier answer comes after a step answering an integer.
  const computes = (skill: string) => UPSTREAM_SKILL_NAMES.includes(skillParts(skill)!.base);
  const integerStep: Step = { id: 's0', scenario: 'web-access-log', skill: 'grep-regex', dependsOn: [] };
  const one = (scenario: string, skill: string) => ({
    label: `${scenario} × ${skill}`,
    steps: computes(skill) ? [integerStep, { id: 's1', scenario, skill, dependsOn: ['s0'] }] : [{ id: 's1', scenario, skill, dependsOn: [] }],
  });
  const fits = (scenario: string, skill: string) => misfit(scenario, skill) === null;
  return [
    ...DOMAIN_NAMES.flatMap((domain) => BASE_SKILL_NAMES.map((skill) => one(domain, skill))),
    ...SCENARIO_NAMES.filter((scenario) => fits(scenario, 'awk-fields')).map((scenario) => one(scenario, 'awk-fields')),
    ...SKILL_NAMES.flatMap((skill) =>
      DOMAIN_NAMES.slice(0, 3)
        .filter((domain) => fits(domain, skill))
        .map((domain) => one(domain, skill)),
    ),
    ...BASE_SKILL_NAMES.map((skill) => ({
      label: `chain → ${skill}`,
      steps: [
        { id: 's1', scenario: 'web-access-log', skill: computes(skill) ? 'grep-regex' : 'sort-uniq-count', dependsOn: [] },
        { id: 's2', scenario: 'mail-spool', skill, dependsOn: ['s1'] },
      ],
    })),
  ];
}

// access-log-report lengthened offline by one chained step of each skill, as the procedural
// synthesiser lengthens an imported seed (the oracle's report.json is what it chains on).
async function chainedBundles(): Promise<TaskBundle[]> {
  const seed = (await exampleBundles()).find((b) => b.name === 'access-log-report')!;
  const report = { total_requests: 600, unique_ips: 43, top_ips: [{ ip: '203.0.113.7', requests: 81 }], server_errors: 64, bytes_sent: 13729609 };
  const artifacts = [{ path: '/app/report.json', content: Buffer.from(`${JSON.stringify(report, null, 2)}\n`) }];
  // A step computing with an earlier answer needs a procedural step before it, not a probe.
  return BASE_SKILL_NAMES.filter((skill) => !UPSTREAM_SKILL_NAMES.includes(skill)).map((skill) => {
    const sequence = importedSequence(seed.name);
    sequence.steps.push({ id: 's2', scenario: 'payments-ledger', skill, dependsOn: ['s1'] });
    return renderChained(seed, sequence, { seed: 3, name: `${seed.name}-${skill}`, artifacts });
  });
}

describe('spelling', () => {
  it('fails "ledger entrys" in the instruction and names the word, the file and the line', async () => {
    const good = await seedLedger();
    expect(text(good, 'instruction.md')).toContain('ledger entries');
    const bad = withFiles(good, { 'instruction.md': text(good, 'instruction.md').replaceAll('ledger entries', 'ledger entrys') });
    const result = await spellingCheck(bad);
    expect(result.passed).toBe(false);
    expect(result.detail).toMatch(
      /^1 misspelt word of \d+ checked: 'entrys'\ninstruction\.md: 'entrys' \(2×\), did you mean 'entry'.* in: .*of ledger entrys\./,
    );
    expect((await spellingCheck(good)).passed).toBe(true);
  });

  it('leaves the title heading alone: it names the task, whatever its files are called now', async () => {
    const good = await seedLedger();
    const body = text(good, 'instruction.md').replace(/^# [^\n]*\n/, '');
    expect((await spellingCheck(withFiles(good, { 'instruction.md': `# claude-seed\n${body}` }))).passed).toBe(true);
    expect((await spellingCheck(withFiles(good, { 'instruction.md': `# claude-seed\n${body}\nSee claude-seed.\n` }))).detail).toMatch(/'claude'/);
  });

  it('checks the text values of task.toml, not its JSON sequence', async () => {
    const good = await seedLedger();
    const toml = text(good, 'task.toml').replace('author_name = "Envolve procedural synthesiser"', 'author_name = "Envolve procedural synthesizr"');
    const result = await spellingCheck(withFiles(good, { 'task.toml': toml }));
    expect(result.passed).toBe(false);
    expect(result.detail).toContain("task.toml: 'synthesizr'");
  });

  it('leaves out code spans, paths, identifiers, numbers and notations', () => {
    const words = wordsToCheck('Sum the of /app/data/s1/ledgr.csv where ACC-0042 is Xyzzy_id, fooBar, HTTPZ, 12.5, rw-r--r-- and a well-knwn phrase.');
    expect(words).toEqual(['Sum', 'the', 'of', 'where', 'is', 'and', 'well', 'knwn', 'phrase']);
    const markdown = proseSources(withFiles({ name: 't', files: [] }, { 'instruction.md': 'Run `jq -r .itms` then\n```\nawk {prnt}\n```\ndone' }));
    expect(markdown[0]!.prose).not.toMatch(/itms|prnt/);
  });

  it('passes the shipped examples and every procedural domain × skill instruction', async () => {
    for (const bundle of await exampleBundles()) expect((await spellingCheck(bundle)).detail, bundle.name).toMatch(/none misspelt/);
    const sequences = proceduralSequences();
    expect(sequences.length).toBeGreaterThan(DOMAIN_NAMES.length * BASE_SKILL_NAMES.length);
    const wrong: string[] = [];
    for (const { label, steps } of sequences) {
      const bundle = renderEnvironment({ steps }, { seed: 7, name: 'procedural-task' });
      for (const m of await misspellings(proseSources(bundle))) wrong.push(`${label}: ${m.file} '${m.word}' in ${m.context}`);
    }
    expect(wrong).toEqual([]);
  });

  it("checks only the section Envolve appended to an imported task, not its author's text", async () => {
    const [chained] = await chainedBundles();
    const instruction = text(chained!, 'instruction.md');
    // A misspelling of the same length in the author's text: not Envolve's text, not checked.
    expect(instruction.indexOf('Standard command-line tools')).toBeLessThan(instruction.indexOf('## Further steps'));
    const authorTypo = withFiles(chained!, { 'instruction.md': instruction.replace('Standard command-line tools', 'Stnadard command-line tools') });
    expect((await spellingCheck(authorTypo)).passed).toBe(true);
    // Text put before the author's moves the chained section, which then no longer lines up: all of it is checked.
    const shifted = withFiles(chained!, { 'instruction.md': `Plese ${instruction}` });
    expect((await spellingCheck(shifted)).detail).toContain("'Plese'");
    const ourTypo = withFiles(chained!, { 'instruction.md': instruction.replace('ledger entry', 'ledger entyr') });
    expect((await spellingCheck(ourTypo)).detail).toContain("'entyr'");
    const sources = proseSources(chained!);
    expect(sources.map((s) => s.file)).toEqual(['instruction.md']);
    expect(sources[0]!.prose.trimStart()).toMatch(/^## Further steps/);
  });
});

describe('solution prints no expected answer', () => {
  it('fails a solve.sh that echoes a value of tests/expected.json', async () => {
    const good = await seedLedger();
    const expected = (JSON.parse(text(good, 'tests/expected.json')) as { steps: { id: string; expected: string }[] }).steps[0]!.expected;
    const solve = `#!/bin/bash\nmkdir -p /app/out\necho "${expected}" > /app/out/s1.txt\n`;
    const result = await printedAnswersCheck(withFiles(good, { 'solution/solve.sh': solve }));
    expect(result.passed).toBe(false);
    expect(result.detail).toContain(`prints the expected answer '${expected}' (from tests/expected.json)`);
    expect((await printedAnswersCheck(good)).passed).toBe(true);
  });

  it('fails a here-document holding a literal the tests compare against', async () => {
    const good = (await exampleBundles()).find((b) => b.name === 'dependency-audit')!;
    const solve = `#!/bin/bash\ncat > /app/audit.json <<'JSON'\n{"findings": [{"package": "cookie", "advisory": "GHSA-co-3139"}]}\nJSON\n`;
    const result = await printedAnswersCheck(withFiles(good, { 'solution/solve.sh': solve }));
    expect(result.passed).toBe(false);
    expect(result.detail).toContain("'GHSA-co-3139' (from tests/test.sh)");
  });

  it('counts a value the instruction gives the agent as an input, not an answer', async () => {
    const good = await seedLedger();
    const solve = `#!/bin/bash\nmkdir -p /app/out\nfor s in s1 s2; do echo "s1 $s"; done\n`;
    expect((await printedAnswersCheck(withFiles(good, { 'solution/solve.sh': solve }))).passed).toBe(true);
  });
});

describe('tests do not read the solution', () => {
  it('fails a test script that reads /solution, naming the file and line; a comment does not count', async () => {
    const good = await seedLedger();
    const script = `${text(good, 'tests/test.sh')}# the oracle lives in /solution\nexpected=$(bash /solution/solve.sh)\n`;
    const result = await testsReadSolutionCheck(withFiles(good, { 'tests/test.sh': script }));
    expect(result.passed).toBe(false);
    expect(result.detail.split('\n')).toEqual([expect.stringMatching(/^tests\/test\.sh:\d+ reads the solution: expected=\$\(bash \/solution\/solve\.sh\)$/)]);
    const relative = await testsReadSolutionCheck(withFiles(good, { 'tests/check.py': 'open("../solution/answers.txt")\n' }));
    expect(relative.passed).toBe(false);
    expect((await testsReadSolutionCheck(withFiles(good, { 'tests/check.py': 'open("/app/my_solution/x")\n' }))).passed).toBe(true);
  });
});

describe('every built-in check on the shipped examples and procedural renders', () => {
  it('passes them all', async () => {
    const bundles = [
      ...(await exampleBundles()),
      ...(await chainedBundles()),
      ...proceduralSequences()
        .filter((_, i) => i % 7 === 0)
        .map(({ steps }) => renderEnvironment({ steps }, { seed: 11, name: 'procedural-task' })),
    ];
    const failures: string[] = [];
    for (const bundle of bundles) {
      for (const [name, check] of Object.entries(BUILTIN_CHECKS)) {
        const result = await check(bundle);
        if (!result.passed) failures.push(`${name} on ${bundle.name}: ${result.detail}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
