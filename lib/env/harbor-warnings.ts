// What imports fine but will break later, said at import: scripts with CRLF line endings or a
// shebang below the first line, COPY/ADD sources missing from environment/, a task asking for
// internet in its agent or verifier phase (Envolve runs trials offline), resources above the
// deployment's ceilings (its trials get the ceiling), compose files, what the
// build downloads (a lab behind a mirror sets the mirror), and what the offline phases download.
import { parse } from 'smol-toml';
import type { ResourceCeilings } from '../config/index.ts';
import { bundleFile, filesUnder, type TaskBundle } from '../bundle/index.ts';
import { composeFileOf, taskComposeSpec, describeNeed, fetchNeeds } from '../sandbox/index.ts';
import { taskWarning, type TaskProblem } from './problems.ts';
import { ceilingWarnings, parseTaskConfig } from '../bundle/index.ts';

export function harborWarnings(bundle: TaskBundle, ceilings?: ResourceCeilings): TaskProblem[] {
  return [
    ...scriptWarnings(bundle),
    ...copySourceWarnings(bundle),
    ...internetWarnings(bundle),
    ...resourceWarnings(bundle, ceilings),
    ...composeWarnings(bundle),
    ...fetchWarnings(bundle),
  ];
}

// What the task asks more of than this deployment gives; a task.toml that does not parse is
// validateBundle's error, not a warning here.
function resourceWarnings(bundle: TaskBundle, ceilings?: ResourceCeilings): TaskProblem[] {
  const toml = bundleFile(bundle, 'task.toml');
  const parsed = toml ? parseTaskConfig(toml.content.toString('utf8'), ceilings) : undefined;
  return parsed?.ok ? ceilingWarnings(parsed.config, ceilings).map((warning) => taskWarning('task.toml', warning)) : [];
}

function isScript(path: string, text: string): boolean {
  return path.endsWith('.sh') || text.startsWith('#!') || /^\s*\n?\s*#!/.test(text);
}

function scriptWarnings(bundle: TaskBundle): TaskProblem[] {
  const problems: TaskProblem[] = [];
  for (const file of bundle.files) {
    const text = file.content.toString('utf8');
    // Docker reads a CRLF Dockerfile fine; only scripts break on it.
    if (!isScript(file.path, text)) continue;
    if (text.includes('\r\n')) {
      problems.push(taskWarning(file.path, "has CRLF line endings: bash reads the \\r as part of each command ($'\\r': command not found)"));
    }
    if (!file.path.endsWith('.sh')) continue;
    const lines = text.split('\n');
    const shebangLine = lines.findIndex((line) => line.replace(/^\uFEFF/, '').startsWith('#!'));
    if (shebangLine > 0 || (shebangLine === 0 && text.startsWith('\uFEFF'))) {
      const where = shebangLine > 0 ? `on line ${shebangLine + 1}` : 'after a byte-order mark';
      problems.push(taskWarning(file.path, `the shebang is ${where}, not at the very start: the kernel ignores it`));
    }
  }
  return problems;
}

// COPY/ADD lines of the Dockerfile, continuation lines joined; `--from=` copies from a stage.
function copySources(dockerfile: string): string[] {
  const joined = dockerfile.replace(/\\\r?\n/g, ' ');
  const sources: string[] = [];
  for (const line of joined.split('\n')) {
    const match = /^\s*(COPY|ADD)\s+(.*)$/i.exec(line);
    if (!match?.[2]) continue;
    const args = match[2].trim();
    if (args.startsWith('[')) continue; // JSON form: rare in tasks, left to the build to judge
    const words = args.split(/\s+/).filter((w) => w.length > 0);
    if (words.some((w) => /^--from=/i.test(w))) continue;
    const operands = words.filter((w) => !w.startsWith('--'));
    sources.push(...operands.slice(0, -1).filter((s) => !/^[a-z]+:\/\//i.test(s) && !s.startsWith('$') && !s.includes('<<')));
  }
  return sources;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${escaped}(/.*)?$`);
}

function copySourceWarnings(bundle: TaskBundle): TaskProblem[] {
  const dockerfile = bundleFile(bundle, 'environment/Dockerfile');
  if (!dockerfile) return [];
  const context = filesUnder(bundle, 'environment').map((f) => f.path.slice('environment/'.length));
  const problems: TaskProblem[] = [];
  for (const source of copySources(dockerfile.content.toString('utf8'))) {
    const normalized = source.replace(/^\.\//, '').replace(/\/+$/, '');
    if (normalized === '' || normalized === '.') continue;
    const pattern = globToRegExp(normalized);
    if (!context.some((path) => pattern.test(path))) {
      problems.push(taskWarning('environment/Dockerfile', `COPY source '${source}' is not in environment/: the build will fail`));
    }
  }
  return problems;
}

// The phases that ask for internet: `allow_internet = true` under [environment] (Harbor's key,
// both phases), [agent] or [verifier]. Only an explicit request counts.
export function internetRequests(taskToml: string): string[] {
  let document: Record<string, unknown>;
  try {
    document = parse(taskToml) as Record<string, unknown>;
  } catch {
    return [];
  }
  const asks = (table: string) => (document[table] as Record<string, unknown> | undefined)?.allow_internet === true;
  return ['environment', 'agent', 'verifier'].filter(asks);
}

function internetWarnings(bundle: TaskBundle): TaskProblem[] {
  const toml = bundleFile(bundle, 'task.toml');
  const tables = toml ? internetRequests(toml.content.toString('utf8')) : [];
  if (tables.length === 0) return [];
  return [
    taskWarning(
      'task.toml',
      `asks for internet (${tables.map((t) => `[${t}] allow_internet = true`).join(', ')}): Envolve runs the agent and the verifier offline, so whatever needs the network will fail`,
    ),
  ];
}

function composeWarnings(bundle: TaskBundle): TaskProblem[] {
  const compose = composeFileOf(bundle);
  if (!compose) return [];
  const spec = taskComposeSpec(bundle, compose);
  return [
    taskWarning(
      compose.path,
      spec.ok
        ? `a multi-container task: its ${spec.sidecars.length} sidecar(s) run on a per-trial network with no internet, and their images must be on this machine`
        : `a multi-container task Envolve will refuse to validate: ${spec.reason}`,
    ),
  ];
}

// The phases' scripts run offline: what they download fails there, whatever the build network.
const OFFLINE_SCRIPTS = ['tests/test.sh', 'solution/solve.sh'];

function fetchWarnings(bundle: TaskBundle): TaskProblem[] {
  const problems: TaskProblem[] = [];
  const dockerfile = bundleFile(bundle, 'environment/Dockerfile');
  // apt fetches from the base image's own sources, which a lab's base already points at its mirror.
  const buildNeeds = (dockerfile ? fetchNeeds(dockerfile.content.toString('utf8'), { dockerfile: true }) : []).filter((n) => n.tool !== 'apt');
  if (buildNeeds.length) {
    const settings = [...new Set(buildNeeds.flatMap((n) => (n.setting ? [n.setting] : [])))];
    problems.push(
      taskWarning(
        'environment/Dockerfile',
        `the build downloads from ${buildNeeds.map(describeNeed).join(', ')}` + (settings.length ? `: behind a mirror, set ${settings.join(', ')}` : ''),
      ),
    );
  }
  for (const path of OFFLINE_SCRIPTS) {
    const script = bundleFile(bundle, path);
    const needs = script ? fetchNeeds(script.content.toString('utf8')) : [];
    if (needs.length === 0) continue;
    problems.push(
      taskWarning(
        path,
        `downloads from ${needs.map(describeNeed).join(', ')}, but Envolve runs this phase offline: install it in the image (environment/Dockerfile) instead`,
      ),
    );
  }
  return problems;
}
