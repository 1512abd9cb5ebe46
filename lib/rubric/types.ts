// A rubric item as data, before it is stored: what the store versions (lib/rubric/store.ts).
// An item is executable (check), built-in (builtinCheck), LLM-judged (question), or a mix.

export type RubricAppliesTo = 'plan' | 'environment' | 'both';
export const RUBRIC_APPLIES_TO: RubricAppliesTo[] = ['plan', 'environment', 'both'];

export interface RubricItemDef {
  key: string; // stable slug across versions
  title: string;
  description: string; // why the item exists, shown to reviewers and the LLM
  // Bash, run as an unprivileged user with the bundle read-only at /bundle as the working
  // directory; exit 0 = passes, its output is kept as the verdict's detail. Environment
  // items see the Harbor task files; plan items see plan.json and parent-sequence.json.
  check: string | null;
  question: string | null; // yes/no for the LLM judge; "yes" = passes
  // name@version of a check in Envolve's own code (lib/rubric/offline/registry.ts), run in-process
  // on the bundle's files with no sandbox and no LLM. Environment items only.
  builtinCheck?: string | null;
  appliesTo: RubricAppliesTo;
}
