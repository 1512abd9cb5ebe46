// GET /api/v1/trainer/environments/:versionId/task: a served version as a Harbor task .tar.gz
// (404 unknown, 403 held out, 410 flagged, rejected or superseded: lib/scheduler/servable.ts).
import { z } from 'zod';
import { route } from '@/app/_server/route.ts';
import { servedTaskTarball } from '@/lib/scheduler/index.ts';

export const GET = route({ permission: 'trainer.api', params: z.object({ versionId: z.string() }) }, async ({ db, params: { versionId } }) => {
  const tarball = await servedTaskTarball(db, versionId);
  return new Response(new Uint8Array(tarball.content), {
    headers: {
      'content-type': 'application/gzip',
      'content-disposition': `attachment; filename="${tarball.name.replace(/[^A-Za-z0-9._-]/g, '_')}-${versionId.slice(0, 12)}.tar.gz"`,
      'x-envolve-version': versionId,
    },
  });
});
