// A built-in rubric check: Envolve's own code judging a bundle in-process, with no sandbox and no LLM.
// The item that uses one names it as name@version (RubricItem.builtinCheck), so a changed check is a
// new item version and every verdict says which code judged.
import type { TaskBundle } from '../../bundle/index.ts';

export interface BuiltinCheckResult {
  passed: boolean;
  detail: string; // what was checked and, when it failed, where
}

export type BuiltinCheck = (bundle: TaskBundle) => Promise<BuiltinCheckResult>;

export function fileText(bundle: TaskBundle, path: string): string | null {
  const file = bundle.files.find((f) => f.path === path);
  return file ? file.content.toString('utf8') : null;
}
