// Structural checks on a task bundle: the Harbor layout is complete, text files
// are text, task.toml parses, paths are safe and sizes are within limits. Runs
// on every bundle before it is stored, whether it came from disk or evolution.

import type { ResourceCeilings } from '../config/index.ts';
import { bundleFile, type TaskBundle } from '../bundle/index.ts';
import { formatBytes, resolveLimits, type ImportLimits } from './import-limits.ts';
import { unsafePathReason } from './paths.ts';
import { taskError, taskWarning, type TaskProblem } from './problems.ts';
import { parseTaskConfig } from '../bundle/index.ts';

export const REQUIRED_FILES = ['task.toml', 'instruction.md', 'environment/Dockerfile', 'tests/test.sh'] as const;
export const ORACLE_FILE = 'solution/solve.sh';
// Near misses: full solutions in which one step is solved the way a careless but competent agent
// would (a naive comma split of quoted CSV, ties broken the wrong way, the decoy input). The file
// name is `<step id>.<mistake>.sh`; the near-miss validator runs each one and it must score 0, so
// tests that let a typical wrong answer through are caught before a trainer meets them.
export const NEAR_MISS_DIR = 'solution/near-misses';

// Files a person or a shell reads; data files elsewhere may be binary.
export function requiresText(path: string): boolean {
  return path === 'task.toml' || path === 'instruction.md' || path === 'environment/Dockerfile' || path.endsWith('.sh');
}

// `ceilings` only words the error about a resource no container can take (default: the deployment's).
export function validateBundle(bundle: TaskBundle, limitOverrides?: Partial<ImportLimits>, ceilings?: ResourceCeilings): TaskProblem[] {
  const limits = resolveLimits(limitOverrides);
  const problems: TaskProblem[] = [...pathProblems(bundle), ...sizeProblems(bundle, limits)];

  for (const path of REQUIRED_FILES) {
    if (!bundleFile(bundle, path)) problems.push(taskError(path, 'required file is missing'));
  }
  if (!bundleFile(bundle, ORACLE_FILE)) {
    problems.push(taskWarning(ORACLE_FILE, 'missing: the task has no oracle solution, so the oracle validator cannot run'));
  }

  for (const file of bundle.files) {
    if (!requiresText(file.path)) continue;
    const textProblem = notTextReason(file.content);
    if (textProblem) problems.push(taskError(file.path, textProblem));
  }

  const toml = bundleFile(bundle, 'task.toml');
  if (toml && !notTextReason(toml.content)) {
    const parsed = parseTaskConfig(toml.content.toString('utf8'), ceilings);
    if (!parsed.ok) problems.push(taskError('task.toml', parsed.error));
  }

  const instruction = bundleFile(bundle, 'instruction.md');
  if (instruction && instruction.content.toString('utf8').trim() === '') {
    problems.push(taskError('instruction.md', 'is empty'));
  }

  const test = bundleFile(bundle, 'tests/test.sh');
  if (test && !/reward\.(txt|json)/.test(test.content.toString('utf8'))) {
    problems.push(taskWarning('tests/test.sh', 'never mentions reward.txt or reward.json; the verifier must write /logs/verifier/reward.txt or reward.json'));
  }
  return problems;
}

export function notTextReason(content: Buffer): string | null {
  if (content.includes(0)) return 'contains NUL bytes; a text file is required here';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return 'is not valid UTF-8; a text file is required here';
  }
  return null;
}

function pathProblems(bundle: TaskBundle): TaskProblem[] {
  const problems: TaskProblem[] = [];
  const seen = new Set<string>();
  for (const file of bundle.files) {
    const unsafe = unsafePathReason(file.path);
    if (unsafe) problems.push(taskError(file.path, unsafe));
    if (seen.has(file.path)) problems.push(taskError(file.path, 'appears twice'));
    seen.add(file.path);
  }
  // A path that is a file and also a parent of another file cannot be written out.
  for (const file of bundle.files) {
    const segments = file.path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/');
      if (seen.has(parent)) problems.push(taskError(parent, `is a file but also the directory of ${file.path}`));
    }
  }
  return problems;
}

function sizeProblems(bundle: TaskBundle, limits: ImportLimits): TaskProblem[] {
  const problems: TaskProblem[] = [];
  let total = 0;
  for (const file of bundle.files) {
    total += file.content.length;
    if (file.content.length > limits.maxFileBytes) {
      problems.push(taskError(file.path, `file is ${formatBytes(file.content.length)}, over the ${formatBytes(limits.maxFileBytes)} per-file limit`));
    }
  }
  if (total > limits.maxTaskBytes) {
    problems.push(taskError('', `task is ${formatBytes(total)}, over the ${formatBytes(limits.maxTaskBytes)} per-task limit`));
  }
  if (bundle.files.length > limits.maxFilesPerTask) {
    problems.push(taskError('', `task has ${bundle.files.length} files, over the ${limits.maxFilesPerTask} file limit`));
  }
  return problems;
}
