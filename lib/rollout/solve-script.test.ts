import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mutate, MUTATIONS } from './mutations.ts';
import { outputPathOf, parseSolveScript, planSteps } from './solve-script.ts';
import { competenceFor, defaultCompetence, parseCompetenceProfile } from './competence.ts';
import { SKILL_WEIGHTS } from '../difficulty/reference-priors.ts';
import { pearson } from '../drift/difficulty-outcome.ts';

const seedLogs = readFileSync(new URL('../../examples/tasks/seed-logs-awk/solution/solve.sh', import.meta.url), 'utf8');
const sequence = {
  steps: [
    { id: 's1', scenario: 'web-access-log', skill: 'sort-uniq-count' },
    { id: 's2', scenario: 'auth-syslog', skill: 'awk-fields' },
  ],
};

describe('parseSolveScript / planSteps', () => {
  it('splits a procedural solution into its preamble settings and one fragment per step', () => {
    const script = parseSolveScript(seedLogs);
    expect(script.setup).toBe('set -euo pipefail\nexport LC_ALL=C\nmkdir -p /app/out');
    expect(script.preambleWork).toBeNull();
    expect(script.fragments.map((f) => [f.id, f.skill, f.scenario])).toEqual([
      ['s1', 'sort-uniq-count', 'web-access-log'],
      ['s2', 'awk-fields', 'auth-syslog'],
    ]);
    const steps = planSteps(script, sequence);
    expect(steps.map((s) => s.id)).toEqual(['s1', 's2']);
    expect(steps[0]!.command.startsWith('set -euo pipefail\nexport LC_ALL=C\nmkdir -p /app/out\n# s1: sort-uniq-count over web-access-log\n')).toBe(true);
    expect(steps[1]!.body).toContain('Accepted-password');
    expect(steps[1]!.body).not.toContain('# s1');
    expect(outputPathOf(steps[0]!.body)).toBe('/app/out/s1.txt');
  });

  it('follows the sequence order, and gives preamble work to the step without a fragment', () => {
    const text = '#!/bin/bash\nset -e\nbash /solution/seed_solve.sh\nmkdir -p /app/out\n\n# s2: wc-count over dns-zone\necho 2 > /app/out/s2.txt\n';
    const steps = planSteps(parseSolveScript(text), {
      steps: [
        { id: 's1', scenario: 'imported:x', skill: 'imported:x' },
        { id: 's2', scenario: 'dns-zone', skill: 'wc-count' },
      ],
    });
    expect(steps.map((s) => [s.id, s.body])).toEqual([
      ['s1', 'bash /solution/seed_solve.sh'],
      ['s2', '# s2: wc-count over dns-zone\necho 2 > /app/out/s2.txt'],
    ]);
    expect(steps[1]!.command).toBe('set -e\nmkdir -p /app/out\n# s2: wc-count over dns-zone\necho 2 > /app/out/s2.txt');
  });

  it('treats a script without fragments as one step', () => {
    const steps = planSteps(parseSolveScript('#!/bin/bash\ncd /app\necho hi > out.txt\n'));
    expect(steps).toEqual([{ id: 'task', skill: 'task', scenario: 'task', command: 'cd /app\necho hi > out.txt', body: 'cd /app\necho hi > out.txt' }]);
  });
});

describe('mutate', () => {
  it('makes a deterministic, different command for every pick', () => {
    const body = parseSolveScript(seedLogs).fragments[0]!.body;
    const names = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const a = mutate(body, (n) => i % n);
      const b = mutate(body, (n) => i % n);
      expect(a).toEqual(b);
      expect(a.body).not.toBe(body);
      names.add(a.mutation);
    }
    expect(names.size).toBeGreaterThan(2);
  });

  it('each catalogue entry rewrites what it matches', () => {
    expect(mutate("awk 'NR == 1 { print $2 }'", () => 0)).toEqual({ body: "awk 'NR == 2 { print $2 }'", mutation: 'off-by-one-record' });
    expect(mutate('sort -k1,1nr x', (n) => n - 1).body).not.toBe('sort -k1,1nr x');
    expect(mutate('echo 3 > "$out"', () => 0)).toEqual({ body: 'echo 3 > /dev/null', mutation: 'skipped-output-write' });
    for (const m of MUTATIONS) expect(m.name).toMatch(/^[a-z-]+$/);
  });

  it('without anything recognisable, stops one command short', () => {
    expect(mutate('cd /app\necho hello > out.txt\n', () => 0)).toEqual({ body: 'cd /app', mutation: 'skipped-last-command' });
    expect(mutate('touch x', () => 0).body).toBe('true');
  });
});

describe('competence', () => {
  it('the default is drawn per skill from a seed, independent of the reference priors that define D', () => {
    const profile = defaultCompetence();
    const weights = Object.entries(SKILL_WEIGHTS);
    const names = weights.map(([n]) => n);
    const values = names.map((n) => competenceFor(profile, n));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0.5);
    expect(Math.max(...values)).toBeLessThanOrEqual(0.95);
    expect(new Set(values).size).toBeGreaterThan(names.length / 2);
    // Rarity does not decide competence: r(log weight, competence) is far from the old +1.
    const { r } = pearson(weights.map(([, w], i) => [Math.log(w), values[i]!] as const));
    expect(Math.abs(r!)).toBeLessThan(0.5);
    // Any name, known or not, gets a stable draw; a named skill overrides it.
    expect(competenceFor(profile, 'never-heard-of-it')).toBe(competenceFor(defaultCompetence(), 'never-heard-of-it'));
    expect(competenceFor({ ...profile, skills: { 'grep-regex': 0.2 } }, 'grep-regex')).toBe(0.2);
    expect(competenceFor({ default: 0.3, skills: {} }, 'grep-regex')).toBe(0.3);
  });

  it('a profile is validated with a clear error', () => {
    expect(parseCompetenceProfile({ default: 0.3 })).toEqual({ default: 0.3, skills: {} });
    expect(parseCompetenceProfile({ default: 0.3, seed: 7 })).toEqual({ default: 0.3, seed: 7, skills: {} });
    expect(() => parseCompetenceProfile({ default: 2 })).toThrow(/default: .*1/);
    expect(() => parseCompetenceProfile({ default: 0.5, skill: {} })).toThrow(/invalid/);
  });
});
