// How a chained step reads the output of an imported task: a probe is one value the original
// task's output file determines (a jq lookup in a JSON file, a count over the lines of a text
// file), computed here in TypeScript from the bytes the seed's oracle wrote, with the shell
// command that computes the same value at run time. A step that depends on the imported step
// picks its data directory by that value, so it can only be solved from the real output.
import type { Rng } from './rng.ts';

export interface OracleArtifact {
  path: string; // absolute, in the container
  content: Buffer;
}

export interface ArtifactProbe {
  file: string; // the artifact's absolute path
  describe: string; // Markdown: "the number of lines in `/app/x.txt`"
  read: string; // a shell command printing the value
  value: string; // what it prints, computed from the artifact's bytes
}

const MAX_ARTIFACT_BYTES = 1024 * 1024;
const SAFE_PATH = /^\/[A-Za-z0-9._/-]+$/;
const SAFE_TOKEN = /^(?=.*[A-Za-z0-9])[A-Za-z0-9._:@=-]{1,40}$/; // never . or ..
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_JSON_DEPTH = 4;

// Text files a shell pipeline can read by name: valid UTF-8, no NUL, not empty, not huge.
export function usableArtifacts(artifacts: OracleArtifact[]): OracleArtifact[] {
  return artifacts.filter(
    (a) =>
      SAFE_PATH.test(a.path) &&
      a.content.length > 0 &&
      a.content.length <= MAX_ARTIFACT_BYTES &&
      !a.content.includes(0) &&
      Buffer.from(a.content.toString('utf8'), 'utf8').equals(a.content),
  );
}

export function chooseProbe(artifacts: OracleArtifact[], rng: Rng): ArtifactProbe {
  const usable = usableArtifacts(artifacts).sort((a, b) => (a.path < b.path ? -1 : 1));
  if (usable.length === 0) {
    throw new Error(
      `the seed's oracle wrote no text file to chain on (it changed ${artifacts.length} file${artifacts.length === 1 ? '' : 's'} in its working directory: ${artifacts.map((a) => a.path).join(', ') || 'none'})`,
    );
  }
  // A kind of probe first, then one of its instances, so many leaves or words do not crowd out
  // the other kinds.
  const kinds = probesOf(rng.pick(usable)).filter((kind) => kind.length > 0);
  return rng.pick(rng.pick(kinds));
}

// JSON outputs are probed through jq only: a task that asks for JSON rarely fixes its layout,
// so line-based counts of it would depend on formatting the original tests allow to vary.
// Grouped by kind; every artifact has at least one probe (a JSON length, a text line count).
export function probesOf(artifact: OracleArtifact): ArtifactProbe[][] {
  const text = artifact.content.toString('utf8');
  const json = parseJsonContainer(text);
  return json === undefined ? lineProbes(artifact.path, text) : jsonProbes(artifact.path, json);
}

function parseJsonContainer(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

function jsonProbes(file: string, root: unknown): ArtifactProbe[][] {
  const size = Array.isArray(root) ? root.length : Object.keys(root as object).length;
  const length: ArtifactProbe = {
    file,
    describe: `the number of ${Array.isArray(root) ? 'elements of the top-level array' : 'keys of the top-level object'} in the JSON file \`${file}\``,
    read: `jq 'length' '${file}'`,
    value: String(size),
  };
  const leaves = scalarLeaves(root, '', 0).map(([path, value]) => ({
    file,
    describe: `the value of \`${path}\` in the JSON file \`${file}\` (as \`jq -r\` prints it)`,
    read: `jq -r '${path}' '${file}'`,
    value,
  }));
  // A leaf says more about the task's result than the object's size, which its spec often fixes.
  return leaves.length > 0 ? [leaves] : [[length]];
}

// Leaves jq and JavaScript print identically and that can name a directory: small integers and
// short path-safe strings, reached through identifier keys and array indexes.
function scalarLeaves(value: unknown, path: string, depth: number): Array<[string, string]> {
  if (typeof value === 'number') return Number.isSafeInteger(value) && path ? [[path, String(value)]] : [];
  if (typeof value === 'string') return SAFE_TOKEN.test(value) && path ? [[path, value]] : [];
  if (typeof value !== 'object' || value === null || depth >= MAX_JSON_DEPTH) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => scalarLeaves(v, `${path}[${i}]`, depth + 1));
  return Object.entries(value).flatMap(([key, v]) => (IDENTIFIER.test(key) ? scalarLeaves(v, `${path}.${key}`, depth + 1) : []));
}

// Lines as grep counts them: a final line without a newline still counts.
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  return text.endsWith('\n') ? lines.slice(0, -1) : lines;
}

function lineProbes(file: string, text: string): ArtifactProbe[][] {
  const lines = linesOf(text);
  const count: ArtifactProbe = { file, describe: `the number of lines in \`${file}\``, read: `grep -c '' '${file}'`, value: String(lines.length) };
  const distinct: ArtifactProbe = {
    file,
    describe: `the number of distinct lines (byte for byte) in \`${file}\``,
    read: `LC_ALL=C sort -u '${file}' | grep -c ''`,
    value: String(new Set(lines).size),
  };
  // Words that pick out some lines but not all make the most telling filter.
  const words = [...new Set(text.match(/[A-Za-z][A-Za-z0-9_]{2,19}/g) ?? [])].sort();
  const counted = words.map((word) => [word, lines.filter((l) => l.includes(word)).length] as const);
  const selective = counted.filter(([, n]) => n > 0 && n < lines.length);
  const containing = (selective.length > 0 ? selective : counted.slice(0, 1)).map(([word, n]) => ({
    file,
    describe: `the number of lines of \`${file}\` that contain the text \`${word}\``,
    read: `grep -cF -- '${word}' '${file}'`,
    value: String(n),
  }));
  return [[count], [distinct], containing];
}
