// What a validator run's badge says. Oracle and invalid-test runs show their stored verdict; a rubric
// run's stored verdict is only its gate (lib/rubric/judgement.ts), so it is shown with what it judged.
import { judgementText, rubricRunLabel, type RubricJudgement } from '../rubric/index.ts';

export interface ShownVerdict {
  label: string; // the badge: a rubric run that left verdicts unjudged is "partly judged", never "passed"
  judged: string | null; // rubric runs: "8 of 19 judged, 11 need an LLM judge"; null for other kinds
}

export function shownVerdict(kind: string, verdict: string, judgement: RubricJudgement | null): ShownVerdict {
  if (kind !== 'rubric' || !judgement) return { label: verdict, judged: null };
  return { label: rubricRunLabel(verdict, judgement), judged: judgementText(judgement) };
}
