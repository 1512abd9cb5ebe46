// POST an exit for a needs-attention generation: retry with a larger budget, discard with a
// reason, or (a lead) accept with a written justification, on the revision the person saw.
import { route } from '@/app/_server/route.ts';
import { attentionBodySchema, takeAttentionExit } from '@/lib/evolution/index.ts';
import { generationParamsSchema } from '@/lib/review/index.ts';

export const POST = route(
  { permission: 'generation.decide', params: generationParamsSchema, body: attentionBodySchema },
  async ({ db, user, params, body }) => {
    const moved = await takeAttentionExit(db, user, params.id, body);
    return { generationId: moved.id, state: moved.state, revision: moved.revision, error: moved.error };
  },
);
