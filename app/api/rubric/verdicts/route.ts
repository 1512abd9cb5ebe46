// GET ?generationId=: the rubric verdicts of every rubric validator run of a generation's
// attempts, each naming the item version that judged (key@version) and the run's rubric version.
import { route } from '@/app/_server/route.ts';
import { rubricRunsOfGeneration, runVerdictsQuerySchema } from '@/lib/rubric/index.ts';

export const GET = route({ permission: 'dashboard.read', query: runVerdictsQuerySchema }, async ({ db, query }) => ({
  runs: await rubricRunsOfGeneration(db, query.generationId),
}));
