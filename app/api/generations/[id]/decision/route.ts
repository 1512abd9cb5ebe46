// POST a decision on a generation: approve, reject or request changes, on the revision the
// reviewer saw. The one server path for the review page and the queue's keyboard shortcuts.
import { route } from '@/app/_server/route.ts';
import { decide, decisionBodySchema, generationParamsSchema } from '@/lib/review/index.ts';

export const POST = route({ permission: 'generation.decide', params: generationParamsSchema, body: decisionBodySchema }, ({ db, user, params, body }) =>
  decide(db, { generationId: params.id, user, ...body }),
);
