import { requestDb } from '@/app/_server/db.ts';
import { notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { exportTaskTarball } from '@/lib/env/export-archive.ts';
import { unservableReason } from '@/lib/scheduler/servable.ts';

// GET /api/v1/trainer/environments/:versionId/task: the version as a Harbor task .tar.gz.
export async function GET(request: Request, { params }: { params: Promise<{ versionId: string }> }): Promise<Response> {
  const caller = await guardRoute(request, 'trainer.api');
  if (caller instanceof Response) return caller;
  const { versionId } = await params;
  const db = await requestDb();
  const unservable = await unservableReason(db, versionId);
  if (unservable?.kind === 'unknown_version') return notFound(unservable.message);
  // Held out: refused to this caller (403). Flagged, rejected, superseded: no longer served (410).
  if (unservable) return Response.json({ error: unservable.kind, message: unservable.message }, { status: unservable.kind === 'held_out' ? 403 : 410 });
  const tarball = await exportTaskTarball(db, versionId);
  return new Response(new Uint8Array(tarball.content), {
    headers: {
      'content-type': 'application/gzip',
      'content-disposition': `attachment; filename="${tarball.name.replace(/[^A-Za-z0-9._-]/g, '_')}-${versionId.slice(0, 12)}.tar.gz"`,
      'x-envolve-version': versionId,
    },
  });
}
