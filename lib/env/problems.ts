// A problem found in a task while reading or validating it. `path` is the file
// it concerns, relative to the task root ('' for the task as a whole). Errors
// stop the task from being stored; warnings are reported beside the result.

export interface TaskProblem {
  severity: 'error' | 'warning';
  path: string;
  message: string;
}

export function taskError(path: string, message: string): TaskProblem {
  return { severity: 'error', path, message };
}

export function taskWarning(path: string, message: string): TaskProblem {
  return { severity: 'warning', path, message };
}

export function formatProblem(problem: TaskProblem): string {
  return problem.path ? `${problem.path}: ${problem.message}` : problem.message;
}

export function hasErrors(problems: TaskProblem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
