// POST {answer: pass|fail|unsure, note?, durationMs?}: the annotator's label; answers with their
// queue, already leased on the next item, so the page can show it at once.
import { route } from '@/app/_server/route.ts';
import { itemParamsSchema, labelInputSchema, submitLabel } from '@/lib/calibration/index.ts';

export const POST = route({ permission: 'calibration.label', params: itemParamsSchema, body: labelInputSchema }, ({ db, user, params, body }) =>
  submitLabel(db, { setId: params.set, itemId: params.item, annotatorId: user.id }, body),
);
