// GET ?what=labels|metrics&format=csv|jsonl: a download of the set's labels or metrics (leads).
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { CalibrationNotFoundError, exportCalibration } from '@/lib/calibration/index.ts';

const querySchema = z.object({ what: z.enum(['labels', 'metrics']).default('labels'), format: z.enum(['csv', 'jsonl']).default('csv') });

export async function GET(request: Request, { params }: { params: Promise<{ set: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'calibration.manage');
  if (user instanceof Response) return user;
  const url = new URL(request.url);
  const parsed = querySchema.safeParse({ what: url.searchParams.get('what') ?? undefined, format: url.searchParams.get('format') ?? undefined });
  if (!parsed.success) return badRequest(parsed.error);
  const { set } = await params;
  const { what, format } = parsed.data;
  try {
    const body = await exportCalibration(await requestDb(), set, what, format);
    return new Response(body, {
      headers: {
        'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        'content-disposition': `attachment; filename="calibration-${set}-${what}.${format}"`,
      },
    });
  } catch (err) {
    if (err instanceof CalibrationNotFoundError) return Response.json({ error: 'not_found', message: err.message }, { status: 404 });
    throw err;
  }
}
