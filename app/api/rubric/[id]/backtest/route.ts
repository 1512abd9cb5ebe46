// GET: the item's latest backtest job and findings. POST {states?}: queue a backtest (leads).
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { backtestJobPayload, enqueueBacktest, RubricItemNotFoundError } from '@/lib/rubric/index.ts';
import { backtestView } from '@/lib/rubric/backtest-view.ts';

type Params = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  const user = await guardRoute(request, 'dashboard.read');
  if (user instanceof Response) return user;
  const { id } = await params;
  const db = await requestDb();
  if (!(await db.rubricItem.findUnique({ where: { id }, select: { id: true } }))) return notFound(`rubric item ${id} not found`);
  return Response.json(await backtestView(db, id));
}

const body = backtestJobPayload.pick({ states: true });

export async function POST(request: Request, { params }: Params): Promise<Response> {
  const user = await guardRoute(request, 'rubric.manage');
  if (user instanceof Response) return user;
  const { id } = await params;
  const parsed = body.safeParse(await request.json().catch(() => ({})));
  if (!parsed.success) return badRequest(parsed.error);
  try {
    const job = await enqueueBacktest(await requestDb(), user, { itemId: id, states: parsed.data.states });
    return Response.json({ job: { id: job.id, state: job.state } }, { status: 202 });
  } catch (err) {
    if (err instanceof RubricItemNotFoundError) return notFound(err.message);
    if (err instanceof z.ZodError) return badRequest(err);
    throw err;
  }
}
