// The executable half of Loop 1's plan reviewer: plan items' checks run against the plan
// and the parent sequence (as /bundle/plan.json and /bundle/parent-sequence.json) in one
// sandbox container. LLM-only items come back 'unjudged' here; the synthesiser's own
// review judges them. A check that errs or times out rejects the plan: nothing unverified passes.
import type { Sandbox } from '../sandbox/index.ts';
import type { Sequence } from '../sequence/index.ts';
import type { Plan, PlanReviewItem, RubricItemView } from '../synth/index.ts';
import { checkVerdict } from './verdicts.ts';

export interface PlanRubricInput {
  sandbox: Sandbox;
  plan: Plan;
  parentSequence: Sequence;
  items: ReadonlyArray<Pick<RubricItemView, 'id' | 'key' | 'check' | 'appliesTo'>>;
}

function jsonFile(path: string, value: unknown) {
  return { path, content: Buffer.from(`${JSON.stringify(value, null, 2)}\n`), executable: false };
}

export async function reviewPlanAgainstRubric(input: PlanRubricInput): Promise<PlanReviewItem[]> {
  const items = input.items.filter((item) => item.appliesTo !== 'environment');
  const withCheck = items.filter((item): item is typeof item & { check: string } => item.check !== null);
  const checks =
    withCheck.length === 0
      ? { results: [] }
      : await input.sandbox.runChecks({
          files: [jsonFile('parent-sequence.json', input.parentSequence), jsonFile('plan.json', input.plan)],
          checks: withCheck.map((item) => ({ id: item.id, script: item.check })),
          labels: { 'envolve.validator': 'plan-rubric' },
        });
  const byId = new Map(checks.results.map((r) => [r.id, r]));
  return items.map((item): PlanReviewItem => {
    if (item.check === null) return { itemId: item.id, verdict: 'unjudged', reason: 'judged by the LLM reviewer only' };
    const result = byId.get(item.id);
    if (!result) return { itemId: item.id, verdict: 'failed', reason: `${item.key}: the sandbox returned no result for its check` };
    const { verdict, detail } = checkVerdict(result);
    const reason = `${item.key}: ${detail.trim() || `exit code ${result.exitCode}`}`;
    return { itemId: item.id, verdict: verdict === 'passed' ? 'passed' : 'failed', reason };
  });
}
