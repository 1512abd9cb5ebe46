// Probes of an imported task's output: the value each computes in TypeScript must be what its
// shell command prints, so these check both against hand-counted artifacts (and run the shell
// command locally when the tools are there).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseProbe, linesOf, probesOf, usableArtifacts, type OracleArtifact } from './artifact-probe.ts';
import { createRng } from './rng.ts';

const artifact = (path: string, content: string | Buffer): OracleArtifact => ({ path, content: Buffer.isBuffer(content) ? content : Buffer.from(content) });
const log = artifact('/app/out.txt', 'GET /a 200\nGET /b 404\nPOST /a 200\nGET /a 200\nPUT /c 500');
const report = artifact(
  '/app/report.json',
  JSON.stringify({ total: 42, top: [{ ip: '10.0.0.1', n: 7 }], note: 'two words', 'odd-key': 3, ratio: 0.5 }, null, 2),
);

function hasTool(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`]);
    return true;
  } catch {
    return false;
  }
}

describe('artifact probes', () => {
  it('counts lines as grep does, with or without a final newline', () => {
    expect(linesOf('')).toEqual([]);
    expect(linesOf('a\nb')).toEqual(['a', 'b']);
    expect(linesOf('a\nb\n')).toEqual(['a', 'b']);
    expect(linesOf('a\n\n')).toEqual(['a', '']);
  });

  it('computes line, distinct-line and containing-word counts of a text file', () => {
    const probes = probesOf(log).flat();
    const byRead = Object.fromEntries(probes.map((p) => [p.read, p.value]));
    expect(byRead["grep -c '' '/app/out.txt'"]).toBe('5');
    expect(byRead["LC_ALL=C sort -u '/app/out.txt' | grep -c ''"]).toBe('4');
    expect(byRead["grep -cF -- 'GET' '/app/out.txt'"]).toBe('3');
    expect(byRead["grep -cF -- 'POST' '/app/out.txt'"]).toBe('1');
    for (const p of probes) expect(p.describe).toContain('`/app/out.txt`');
  });

  it('probes JSON through jq only: integer and path-safe string leaves behind identifier keys', () => {
    const probes = probesOf(report).flat();
    expect(probes.map((p) => [p.read, p.value])).toEqual([
      ["jq -r '.total' '/app/report.json'", '42'],
      ["jq -r '.top[0].ip' '/app/report.json'", '10.0.0.1'],
      ["jq -r '.top[0].n' '/app/report.json'", '7'],
    ]);
    // Without usable leaves, the size of the top-level value.
    expect(
      probesOf(artifact('/app/a.json', '[1.5, "a b", null]'))
        .flat()
        .map((p) => [p.read, p.value]),
    ).toEqual([["jq 'length' '/app/a.json'", '3']]);
  });

  it('offers only text files a shell can name', () => {
    const usable = usableArtifacts([
      log,
      artifact('/app/empty.txt', ''),
      artifact('/app/bin.dat', Buffer.from([0x61, 0x00, 0x62])),
      artifact('/app/latin1.txt', Buffer.from([0xe9, 0x0a])),
      artifact("/app/it's.txt", 'x\n'),
    ]);
    expect(usable.map((a) => a.path)).toEqual(['/app/out.txt']);
    expect(() => chooseProbe([artifact('/app/empty.txt', '')], createRng(1))).toThrow(/wrote no text file to chain on/);
  });

  it('is deterministic in its seed', () => {
    const a = chooseProbe([log, report], createRng(7));
    expect(chooseProbe([report, log], createRng(7))).toEqual(a);
  });

  it('prints exactly the computed value when its command runs', () => {
    // The probes' commands use jq, as the sandbox image does: without it this test cannot run
    // them, and says so rather than passing by skipping.
    if (!hasTool('jq')) throw new Error('jq is not installed: bash scripts/prereqs.sh docker installs it (apt-get install jq)');
    const dir = mkdtempSync(join(tmpdir(), 'probe-'));
    for (const a of [log, report]) {
      const local = artifact(join(dir, a.path.slice(5)), a.content);
      writeFileSync(local.path, local.content);
      for (const p of probesOf(local).flat()) {
        expect(execFileSync('bash', ['-c', p.read]).toString().trim(), p.read).toBe(p.value);
      }
    }
  });
});
