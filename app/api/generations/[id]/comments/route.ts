// Review comments on a generation: GET lists them, POST adds one (optionally pinned to a line).
import { route } from '@/app/_server/route.ts';
import { addComment, listComments, commentBodySchema, generationParamsSchema } from '@/lib/review/index.ts';

export const GET = route({ permission: 'dashboard.read', params: generationParamsSchema }, async ({ db, params }) => ({
  comments: await listComments(db, params.id),
}));

export const POST = route(
  { permission: 'generation.comment', params: generationParamsSchema, body: commentBodySchema, status: 201 },
  async ({ db, user, params, body }) => ({
    comment: await addComment(db, { generationId: params.id, user, ...body }),
  }),
);
