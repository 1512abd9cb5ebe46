// POST {label: pass|fail|unsure, note?}: a lead's final label on an item the annotators disagree on (audited).
import { route } from '@/app/_server/route.ts';
import { adjudicate, adjudicationSchema, itemParamsSchema } from '@/lib/calibration/index.ts';

export const POST = route({ permission: 'calibration.manage', params: itemParamsSchema, body: adjudicationSchema }, ({ db, user, params, body }) =>
  adjudicate(db, user, { setId: params.set, itemId: params.item }, body),
);
