// PATCH {active}: put an item version in force or take it out (leads; audited).
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { setItemActive } from '@/lib/rubric/index.ts';
import { errorResponse } from '../errors.ts';

const body = z.object({ active: z.boolean() });

export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'rubric.manage');
  if (user instanceof Response) return user;
  const parsed = body.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return badRequest(parsed.error);
  try {
    return Response.json({ item: await setItemActive(await requestDb(), user, (await params).id, parsed.data.active) });
  } catch (err) {
    return errorResponse(err);
  }
}
