// GET ?generationId=: the rubric verdicts of every rubric validator run of a generation's
// attempts, each naming the item version that judged (key@version) and the run's rubric version.
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';

const query = z.object({ generationId: z.string().min(1).max(64) });

export async function GET(request: Request): Promise<Response> {
  const user = await guardRoute(request, 'dashboard.read');
  if (user instanceof Response) return user;
  const parsed = query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return badRequest(parsed.error);
  const runs = await (await requestDb()).validatorRun.findMany({
    where: { kind: 'rubric', attempt: { generationId: parsed.data.generationId } },
    orderBy: { createdAt: 'asc' },
    include: { attempt: { select: { number: true } }, rubricVerdicts: { include: { item: { select: { key: true, version: true } } } } },
  });
  return Response.json({
    runs: runs.map((run) => ({
      id: run.id,
      attempt: run.attempt?.number ?? null,
      versionId: run.versionId,
      verdict: run.verdict,
      rubricVersion: run.rubricVersion,
      verdicts: run.rubricVerdicts.map((v) => ({ item: `${v.item.key}@${v.item.version}`, itemId: v.itemId, method: v.method, verdict: v.verdict, detail: v.detail })),
    })),
  });
}
