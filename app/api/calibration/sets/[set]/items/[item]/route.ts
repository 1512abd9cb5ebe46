// One item as its annotator sees it: the instruction, the turns, the artifacts and their own
// label — the blind read model (lib/calibration/annotator-view.ts), nothing else.
import { route } from '@/app/_server/route.ts';
import { annotatorItemView, itemParamsSchema } from '@/lib/calibration/index.ts';

export const GET = route({ permission: 'calibration.label', params: itemParamsSchema }, ({ db, user, params }) =>
  annotatorItemView(db, { setId: params.set, itemId: params.item, annotatorId: user.id }),
);
