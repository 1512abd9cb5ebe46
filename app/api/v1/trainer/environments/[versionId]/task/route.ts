import { requestDb } from '@/app/_server/db.ts';
import { notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { exportTaskTarball } from '@/lib/env/export-archive.ts';

// GET /api/v1/trainer/environments/:versionId/task: the version as a Harbor task .tar.gz.
export async function GET(request: Request, { params }: { params: Promise<{ versionId: string }> }): Promise<Response> {
  const caller = await guardRoute(request, 'trainer.api');
  if (caller instanceof Response) return caller;
  const { versionId } = await params;
  const db = await requestDb();
  const version = await db.environmentVersion.findUnique({ where: { id: versionId }, select: { heldOutSet: true, compromisedAt: true } });
  if (!version) return notFound(`environment version ${versionId} not found`);
  if (version.heldOutSet !== null) {
    return Response.json({ error: 'held_out', message: `version ${versionId} is held out (set "${version.heldOutSet}") and is not served for training` }, { status: 403 });
  }
  if (version.compromisedAt !== null) {
    return Response.json({ error: 'compromised', message: `version ${versionId} was flagged as reward-hackable and is no longer served` }, { status: 410 });
  }
  const tarball = await exportTaskTarball(db, versionId);
  return new Response(new Uint8Array(tarball.content), {
    headers: {
      'content-type': 'application/gzip',
      'content-disposition': `attachment; filename="${tarball.name.replace(/[^A-Za-z0-9._-]/g, '_')}-${versionId.slice(0, 12)}.tar.gz"`,
      'x-envolve-version': versionId,
    },
  });
}
