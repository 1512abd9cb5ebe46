// Near misses in TypeScript: every catalogue skill has them, the renderer writes each as a full
// solution, and, for many seeds, each mistake recomputed here by hand on the files a skill's
// materialise() wrote gives another answer than the expected one. The Docker proof, running the
// shell itself, is test/synth/procedural-near-misses.test.ts.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../../test/env/task-fixtures.ts';
import type { TaskBundle } from '../../bundle/bundle.ts';
import { NEAR_MISS_DIR } from '../../env/validate-bundle.ts';
import { DOMAIN_NAMES, scenarioNamed, skillNamed } from './catalogue.ts';
import { skillNearMisses } from './near-misses.ts';
import { byteCompare, generateRecords } from './records.ts';
import { readChain, renderChained } from './render-chain.ts';
import { renderEnvironmentWithSteps } from './render.ts';
import { createRng, hashSeed } from './rng.ts';
import type { Materialised, StepParams } from './skill.ts';
import { SKILLS } from './skills/index.ts';

const SEEDS = Array.from({ length: 25 }, (_, i) => i + 1);
// TSV exports parse without a scenario-specific reader: one with cents, one with whole units.
const SCENARIOS = ['payments-ledger+tsv', 'inventory-csv+tsv'] as const;

interface Made extends Materialised {
  params: StepParams;
  decimals: 0 | 2;
  extract: string; // the scenario's extract: its parser, then its domain's rule
}

function make(skill: string, scenarioName: string, seed: number, count?: [number, number]): Made {
  const scenario = scenarioNamed(scenarioName);
  const rng = createRng(hashSeed(seed, skill, scenarioName));
  const keys = scenario.makeKeys(rng);
  const params = { category: rng.pick(scenario.categories), key: rng.pick(keys), batch: rng.int(2, 3) };
  const [fewest, most] =
    count ??
    rng.pick<[number, number]>([
      [40, 60],
      [12, 24],
      [80, 120],
    ]);
  const records = generateRecords(rng, {
    count: rng.int(fewest, most),
    keys,
    categories: scenario.categories,
    texts: scenario.texts,
    value: scenario.value,
    ensureCategory: params.category,
    ensureKey: params.key,
  });
  return { ...skillNamed(skill).skill.materialise({ scenario, params, rng, records }), params, decimals: scenario.value.decimals, extract: scenario.extract };
}

interface Row {
  key: string;
  value: string;
  time: string;
  category: string;
  text: string;
}
const rowsOf = (tsv: string): Row[] =>
  tsv
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => {
      const [key, value, time, category, text] = line.split('\t') as [string, string, string, string, string];
      return { key, value, time, category, text };
    });
const file = (made: Made, path: string): string => made.files.find((f) => f.path === path)?.content ?? '';
// The rows of the native file that count, as every solution reads them: through the scenario's
// extract (its domain's rule drops the rows it excludes), run by bash as the sandbox runs it.
const counted = new Map<string, Row[]>();
const native = (made: Made, content = made.files[0]!.content): Row[] => {
  const key = `${made.extract}\n${content}`;
  if (!counted.has(key))
    counted.set(key, rowsOf(`\n${execFileSync('bash', ['-c', `export LC_ALL=C; ${made.extract}`], { input: content, encoding: 'utf8' })}`));
  return counted.get(key)!;
};
const cents = (value: string): number => Math.round(Number(value) * 100);
const shown = (units: number, decimals: 0 | 2): string => (decimals === 0 ? String(units) : (units / 100).toFixed(2));
const units = (value: string, decimals: 0 | 2): number => (decimals === 0 ? Number(value) : cents(value));
const sumOf = (rows: Row[], decimals: 0 | 2): number => rows.reduce((t, r) => t + units(r.value, decimals), 0);
// `sort | uniq -c | sort -k1,1nr -k2,2[r]` then the first line.
function ranked(counts: Map<string, number>, largestOnTies = false): string {
  const [name, n] = [...counts].sort((a, b) => b[1] - a[1] || (largestOnTies ? -1 : 1) * byteCompare(a[0], b[0]))[0]!;
  return `${name} ${n}`;
}
const countBy = (names: string[]): Map<string, number> => names.reduce((m, n) => m.set(n, (m.get(n) ?? 0) + 1), new Map<string, number>());

// What each near miss of a skill answers on the data, recomputed by hand from the files.
const MISTAKES: Record<string, (made: Made) => Record<string, string>> = {
  'awk-fields': (m) => {
    const rows = native(m);
    const inCategory = rows.filter((r) => r.category === m.params.category);
    return {
      'no-category-filter': shown(sumOf(rows, m.decimals), m.decimals),
      'first-record-as-header': shown(
        sumOf(
          rows.slice(1).filter((r) => r.category === m.params.category),
          m.decimals,
        ),
        m.decimals,
      ),
      ...(m.decimals === 2
        ? {
            'whole-units-only': shown(
              inCategory.reduce((t, r) => t + Math.trunc(Number(r.value)) * 100, 0),
              2,
            ),
          }
        : {}),
    };
  },
  'sort-uniq-count': (m) => {
    const keys = native(m).map((r) => r.key);
    const runs = new Map<string, number>();
    keys.forEach((k, i) => {
      let run = 1;
      while (keys[i - run] === k) run++;
      runs.set(k, Math.max(runs.get(k) ?? 0, run));
    });
    return { 'ties-wrong-way': ranked(countBy(keys), true), 'uniq-without-sort': ranked(runs) };
  },
  'grep-regex': (m) => {
    const texts = native(m).map((r) => r.text);
    const count = (re: RegExp) => String(texts.filter((t) => re.test(t)).length);
    return { 'case-insensitive': count(/-ERR[0-9]{3}$/i), unanchored: count(/-ERR[0-9]{3}/), 'any-digit-count': count(/-ERR[0-9]+$/) };
  },
  'sed-rewrite': (m) => {
    const texts = native(m)
      .filter((r) => r.category === m.params.category)
      .map((r) => r.text);
    return {
      'per-digit': texts.map((t) => t.replace(/[0-9]/g, 'N')).join('\n'),
      'first-run-only': texts.map((t) => t.replace(/[0-9]+/, 'N')).join('\n'),
      'sorted-unique': [...new Set(texts.map((t) => t.replace(/[0-9]+/g, 'N')))].sort(byteCompare).join('\n'),
    };
  },
  'jq-query': (m) => {
    const cols = Object.keys(JSON.parse(file(m, 'records.json'))[0]);
    const rows = (JSON.parse(file(m, 'records.json')) as Array<Record<string, string | number>>).map((o) => cols.map((c) => o[c]!));
    const line = (r: Array<string | number>) => `${r[0]} ${shown(units(String(r[1]), m.decimals), m.decimals)}`;
    const mine = rows.filter((r) => r[3] === m.params.category);
    return {
      'text-sort-of-values': line([...mine].sort((a, b) => byteCompare(String(b[1]), String(a[1])))[0]!),
      'no-category-filter': line([...rows].sort((a, b) => Number(b[1]) - Number(a[1]))[0]!),
    };
  },
  'sqlite-sql': (m) => {
    const rows = file(m, 'records.csv')
      .split('\n')
      .slice(1, -1)
      .map((l) => l.split(','));
    const group = (value: (v: string) => number) => rows.reduce((t, r) => t.set(r[3]!, (t.get(r[3]!) ?? 0) + value(r[1]!)), new Map<string, number>());
    const pick = (totals: Map<string, number>, order: Map<string, number>, largestOnTies = false) => {
      const [name] = [...order].sort((a, b) => b[1] - a[1] || (largestOnTies ? -1 : 1) * byteCompare(a[0], b[0]))[0]!;
      return `${name} ${shown(totals.get(name)!, m.decimals)}`;
    };
    const exact = group((v) => units(v, m.decimals));
    const truncated = group((v) => Math.trunc(Number(v)) * (m.decimals === 2 ? 100 : 1));
    return {
      'ties-wrong-way': pick(exact, exact, true),
      'most-rows-not-largest-total': pick(
        exact,
        group(() => 1),
      ),
      ...(m.decimals === 2 ? { 'integer-cast': pick(truncated, truncated) } : {}),
    };
  },
  'join-tables': (m) => {
    const owners = file(m, 'owners.tsv')
      .split('\n')
      .slice(0, -1)
      .map((l) => l.split('\t') as [string, string]);
    const totals = (match: (key: string, owner: string) => boolean) => {
      const t = new Map<string, number>();
      for (const r of native(m)) for (const [k, team] of owners) if (match(r.key, k)) t.set(team, (t.get(team) ?? 0) + units(r.value, m.decimals));
      return t;
    };
    const top = (t: Map<string, number>, largestOnTies = false) => {
      const [team, total] = [...t].sort((a, b) => b[1] - a[1] || (largestOnTies ? -1 : 1) * byteCompare(a[0], b[0]))[0]!;
      return `${team} ${shown(total, m.decimals)}`;
    };
    return {
      'ties-wrong-way': top(
        totals((k, o) => k === o),
        true,
      ),
      'prefix-key-match': top(totals((k, o) => o.startsWith(k))),
    };
  },
  'tar-archive': (m) => {
    const parts = m.files.map((f) => native(m, f.content).filter((r) => r.key === m.params.key).length);
    return { 'first-part-only': String(parts[0]), 'last-part-only': String(parts[parts.length - 1]) };
  },
  'sha256-checksum': (m) => {
    const listed = file(m, 'SHA256SUMS')
      .split('\n')
      .slice(0, -1)
      .map((l) => l.split('  ') as [string, string]);
    const failed = listed.filter(([hash, name]) => createHash('sha256').update(file(m, name)).digest('hex') !== hash).map(([, name]) => name);
    return { 'manifest-order': failed.join('\n'), 'first-failure-only': [...failed].sort(byteCompare)[0]! };
  },
  'date-arithmetic': (m) => {
    const seconds = (t: string) => Date.parse(t) / 1000;
    const mine = native(m).filter((r) => r.key === m.params.key);
    const all = native(m)
      .map((r) => seconds(r.time))
      .sort((a, b) => a - b);
    return {
      'file-order-as-time-order': String(seconds(mine[mine.length - 1]!.time) - seconds(mine[0]!.time)),
      'no-key-filter': String(all[all.length - 1]! - all[0]!),
    };
  },
  'find-xargs': (m) => {
    const total = (pick: (path: string) => boolean) =>
      shown(
        sumOf(
          m.files.filter((f) => pick(f.path)).flatMap((f) => rowsOf(f.content)),
          m.decimals,
        ),
        m.decimals,
      );
    return {
      'rec-bak-included': total((p) => /\.rec[^/]*$/.test(p)),
      'tmp-included': total((p) => !p.endsWith('.bak')),
      'fixed-depth-glob': total((p) => /^tree\/[^/]+\/[^/]+\/[^/]+\.rec$/.test(p)),
    };
  },
  'file-permissions': (m) => {
    const modes = new Map([...m.build!.matchAll(/^chmod (\d+) '(.+)'$/gm)].map((x) => [x[2]!, x[1]!]));
    const line = (approved: (mode: string) => boolean, sumAll = false) => {
      const chosen = m.files.filter((f) => approved(modes.get(f.path)!));
      return `${chosen.length} ${shown(
        sumOf(
          (sumAll ? m.files : chosen).flatMap((f) => rowsOf(f.content)),
          m.decimals,
        ),
        m.decimals,
      )}`;
    };
    return {
      'at-least-644': line((mode) => [...'644'].every((d, i) => (Number(mode[i]) & Number(d)) === Number(d))),
      'mode-prefix': line((mode) => mode.startsWith('64')),
      'sum-over-every-batch': line((mode) => mode === '644', true),
    };
  },
  'git-history': (m) => {
    const snapshot = (n: number) => rowsOf(file(m, `snapshots/${n}`));
    const total = (rows: Row[]) => shown(sumOf(rows, m.decimals), m.decimals);
    const b = m.params.batch;
    return {
      'latest-version': total(snapshot(4)),
      'commit-diff-only': total(snapshot(b).slice(snapshot(b - 1).length)),
      'log-position': total(snapshot(5 - b)),
    };
  },
  'config-parse': (m) => {
    const lines = file(m, 'selection.ini').split('\n');
    const sections = new Map<string, string[]>();
    let section = '';
    for (const l of lines) {
      if (l.startsWith('[')) section = l.slice(1, -1);
      else sections.set(section, [...(sections.get(section) ?? []), l]);
    }
    const live = (name: string, key: string) =>
      sections
        .get(name)
        ?.find((l) => l.startsWith(`${key} = `))
        ?.split(' = ')[1];
    const grepped = (name: string, key: string) =>
      sections
        .get(name)
        ?.find((l) => l.includes(`${key} =`))
        ?.replace(/.*= */, '');
    const active = `profile:${live('report', 'profile')}`;
    const count = (category: string, min: string, strict = false) =>
      String(native(m).filter((r) => r.category === category && (strict ? Number(r.value) > Number(min) : Number(r.value) >= Number(min))).length);
    const effective = (key: string) => live(active, key) ?? live('defaults', key)!;
    return {
      'strictly-greater': count(effective('category'), effective('min_value'), true),
      'defaults-only': count(live('defaults', 'category')!, live('defaults', 'min_value')!),
      'commented-line-read': count(
        grepped(active, 'category') ?? grepped('defaults', 'category')!,
        grepped(active, 'min_value') ?? grepped('defaults', 'min_value')!,
      ),
    };
  },
  'cut-columns': (m) => {
    const [, ...rows] = file(m, 'export.psv')
      .split('\n')
      .slice(0, -1)
      .map((l) => l.split('|'));
    const header = file(m, 'export.psv').split('\n')[0]!.split('|');
    const [keyAt, catAt] = [
      header.indexOf('sku') >= 0 ? header.indexOf('sku') : header.indexOf('account'),
      header.indexOf('warehouse') >= 0 ? header.indexOf('warehouse') : header.indexOf('kind'),
    ];
    return {
      'fixed-column-order': String(new Set(rows.filter((r) => r[3] === m.params.category).map((r) => r[0])).size),
      'rows-not-distinct': String(rows.filter((r) => r[catAt] === m.params.category).map((r) => r[keyAt]).length),
    };
  },
  'wc-count': (m) => {
    const counts = new Map(m.files.map((f) => [f.path.slice('by-key/'.length, -'.txt'.length), f.content.split('\n').length - 1]));
    return { 'ties-wrong-way': ranked(counts, true), 'wc-total-line': `total ${[...counts.values()].reduce((a, b) => a + b, 0)}` };
  },
  'diff-compare': (m) => {
    const [added, removed] = m.answer.split(' ');
    return { 'directions-swapped': `${removed} ${added}`, 'unified-headers-counted': `${Number(added) + 1} ${Number(removed) + 1}` };
  },
  'gzip-stream': (m) => {
    const name = m.files[0]!.path;
    const total = (paths: string[]) =>
      shown(
        sumOf(
          paths.flatMap((p) => rowsOf(m.files.find((x) => x.path === p)!.content)).filter((r) => r.category === m.params.category),
          m.decimals,
        ),
        m.decimals,
      );
    return {
      'plain-files-only': total([name, `${name}.1`]),
      'current-file-only': total([name]),
      'plain-rotation-skipped': total([name, `${name}.2`, `${name}.3`]),
    };
  },
  'bc-arithmetic': (m) => {
    const rows = native(m);
    const mine = rows.filter((r) => r.key === m.params.key);
    const total = sumOf(mine, m.decimals);
    const hundredths = total * (m.decimals === 0 ? 100 : 1);
    // printf '%.2f' of bc's 4-decimal quotient rounds; scale 0 drops the decimals.
    const fourDecimals = Math.floor((hundredths * 100) / mine.length);
    return {
      'mean-rounded': `${shown(total, m.decimals)} ${(Math.round(fourDecimals / 100) / 100).toFixed(2)}`,
      'scale-missing': `${shown(total, m.decimals)} ${Math.floor(hundredths / 100 / mine.length)}`,
      'mean-over-every-record': `${shown(total, m.decimals)} ${(Math.floor(hundredths / rows.length) / 100).toFixed(2)}`,
    };
  },
  'tr-normalise': (m) => {
    const texts = native(m).map((r) => r.text);
    return {
      'ties-wrong-way': ranked(countBy(texts.map((t) => t.toLowerCase().replaceAll('_', '-'))), true),
      'case-kept': ranked(countBy(texts.map((t) => t.replaceAll('_', '-')))),
      'underscores-kept': ranked(countBy(texts.map((t) => t.toLowerCase()))),
    };
  },
  'python-script': (m) => {
    const values = native(m)
      .filter((r) => r.category === m.params.category)
      .map((r) => Number(r.value));
    const sorted = [...values].sort((a, b) => a - b);
    // statistics.quantiles(n=10), method 'exclusive': position (n + 1)·0.9, interpolated.
    const at = (values.length + 1) * 0.9;
    const j = Math.floor(at);
    const interpolated = sorted[j - 1]! + (at - j) * (sorted[j]! - sorted[j - 1]!);
    return {
      'floor-index': sorted[Math.floor(0.9 * values.length)]!.toFixed(m.decimals),
      'interpolated-quantile': interpolated.toFixed(m.decimals),
      'values-unsorted': values[Math.ceil(0.9 * values.length) - 1]!.toFixed(m.decimals),
    };
  },
  'base64-decode': (m) => {
    const rows = rowsOf(Buffer.from(m.files[0]!.content.replaceAll('\n', ''), 'base64').toString('utf8'));
    const first = rows.find((r) => r.category === m.params.category)!;
    const earliest = [...rows].sort((a, b) => byteCompare(a.time, b.time))[0]!;
    return { 'first-match-in-file': `${first.key} ${first.time}`, 'no-category-filter': `${earliest.key} ${earliest.time}` };
  },
};
const HAND_COMPUTED = SKILLS.filter((skill) => skill.name in MISTAKES);

describe('near misses of the skill catalogue', () => {
  it('every skill has 2 to 4, kebab-case, distinct, none the reference, for every domain', () => {
    for (const skill of SKILLS) {
      for (const domain of DOMAIN_NAMES) {
        const scenario = scenarioNamed(domain);
        const misses = skillNearMisses(skill, scenario, { category: scenario.categories[0]!, key: 'k', batch: 2, upstreamFile: '/app/out/s1.txt' });
        expect(misses.length, `${skill.name} over ${domain}`).toBeGreaterThanOrEqual(2);
        expect(misses.length, `${skill.name} over ${domain}`).toBeLessThanOrEqual(4);
      }
    }
  });

  it('refuses a skill without near misses, loudly', () => {
    const scenario = scenarioNamed('web-access-log');
    const bare = { ...SKILLS[0]!, nearMisses: undefined };
    expect(() => skillNearMisses(bare, scenario, { category: '200', key: 'k', batch: 2 })).toThrow(/has no near misses/);
    const lazy = {
      ...SKILLS[0]!,
      nearMisses: () => [{ name: 'same', why: 'the reference', solve: SKILLS[0]!.solve(scenario, { category: '200', key: 'k', batch: 2 }) }],
    };
    expect(() => skillNearMisses(lazy, scenario, { category: '200', key: 'k', batch: 2 })).toThrow(/reference solution itself/);
  });

  // The computation skills' near misses are recomputed in skills/computations.test.ts.
  it('has a hand-computed answer for every near miss of every skill it covers, and covers the first 22', () => {
    expect(HAND_COMPUTED.map((s) => s.name)).toEqual(SKILLS.slice(0, 22).map((s) => s.name));
    for (const skill of HAND_COMPUTED) {
      const names = skillNearMisses(skill, scenarioNamed(SCENARIOS[0]), { category: 'debit', key: 'k', batch: 2 }).map((m) => m.name);
      expect(Object.keys(MISTAKES[skill.name]?.(make(skill.name, SCENARIOS[0], 1)) ?? {}).sort(), skill.name).toEqual(names.sort());
    }
  });

  for (const skill of HAND_COMPUTED) {
    it(`${skill.name}: every near miss answers wrongly on ${SEEDS.length} seeds × ${SCENARIOS.length} scenarios × every record count`, () => {
      for (const scenario of SCENARIOS) {
        for (const seed of SEEDS) {
          for (const count of [
            [12, 24],
            [40, 60],
            [80, 120],
          ] as [number, number][]) {
            const made = make(skill.name, scenario, seed, count);
            for (const [name, answer] of Object.entries(MISTAKES[skill.name]!(made))) {
              expect(answer, `${skill.name}/${name} on ${scenario}, seed ${seed}, ${count[0]}-${count[1]} records`).not.toBe(made.answer);
            }
          }
        }
      }
    });
  }
});

describe('near-miss files in a bundle', () => {
  const text = (bundle: TaskBundle, path: string) => bundle.files.find((f) => f.path === path)!.content.toString('utf8');

  it('are full solutions with exactly one step swapped for its mistake, for every step', () => {
    const sequence = {
      steps: [
        { id: 's1', scenario: 'web-access-log', skill: 'sort-uniq-count', dependsOn: [] },
        { id: 's2', scenario: 'payments-ledger', skill: 'sqlite-sql', dependsOn: ['s1'] },
        { id: 's3', scenario: 'dns-zone+csv', skill: 'awk-fields+gz', dependsOn: ['s2'] },
      ],
    };
    const { bundle, steps } = renderEnvironmentWithSteps(sequence, { seed: 3, name: 'near' });
    const solve = text(bundle, 'solution/solve.sh');
    const written = bundle.files.filter((f) => f.path.startsWith(`${NEAR_MISS_DIR}/`));
    expect(written.map((f) => f.path).sort()).toEqual(steps.flatMap((s) => s.nearMisses.map((m) => `${NEAR_MISS_DIR}/${s.step.id}.${m.name}.sh`)).sort());
    for (const s of steps) {
      expect(solve).toContain(s.solve);
      for (const m of s.nearMisses) {
        const f = written.find((x) => x.path === `${NEAR_MISS_DIR}/${s.step.id}.${m.name}.sh`)!;
        expect(f.executable).toBe(true);
        const [shebang, note, ...rest] = f.content.toString('utf8').split('\n');
        expect(note).toMatch(new RegExp(`^# NEAR MISS, must score 0: step ${s.step.id} solved with the mistake "${m.name}"`));
        expect([shebang, ...rest].join('\n').replace(m.solve, s.solve)).toBe(solve);
        expect(m.solve).not.toBe(s.solve);
      }
    }
  });

  it('are written for the steps chained onto an imported task, after its own solution, and dropped when the chain is read back', () => {
    const base = bundleOf(validTaskFiles(), 'imported');
    const sequence = {
      steps: [
        { id: 's1', scenario: 'imported:imported', skill: 'imported:imported', dependsOn: [] },
        { id: 's2', scenario: 'crontab-schedules', skill: 'git-history', dependsOn: ['s1'] },
      ],
    };
    const artifacts = [{ path: '/app/result.txt', content: Buffer.from('alpha one\nbeta two\n') }];
    const chained = renderChained(base, sequence, { seed: 4, name: 'imported', artifacts });
    const written = chained.files.filter((f) => f.path.startsWith(`${NEAR_MISS_DIR}/`));
    expect(written.map((f) => f.path).sort()).toEqual([
      `${NEAR_MISS_DIR}/s2.commit-diff-only.sh`,
      `${NEAR_MISS_DIR}/s2.latest-version.sh`,
      `${NEAR_MISS_DIR}/s2.log-position.sh`,
    ]);
    for (const f of written) expect(f.content.toString('utf8')).toContain('bash /solution/seed_solve.sh');
    expect(readChain(chained)!.base.files.filter((f) => f.path.startsWith(`${NEAR_MISS_DIR}/`))).toEqual([]);
  });
});
