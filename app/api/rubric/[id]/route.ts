// PATCH {active}: put an item version in force or take it out (leads; audited).
import { z } from 'zod';
import { route } from '@/app/_server/route.ts';
import { setItemActive, setItemActiveSchema } from '@/lib/rubric/index.ts';

export const PATCH = route(
  { permission: 'rubric.manage', params: z.object({ id: z.string() }), body: setItemActiveSchema },
  async ({ db, user, params, body }) => ({
    item: await setItemActive(db, user, params.id, body.active),
  }),
);
