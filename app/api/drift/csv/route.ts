// GET /api/drift/csv?chart=…&part=lines|band: the data behind one drift chart as CSV, for the
// same filter parameters as the page.
import { route } from '@/app/_server/route.ts';
import { driftCsv } from '@/app/drift/csv-download.ts';
import { driftCsvQuerySchema } from '@/lib/drift/index.ts';

export const GET = route({ permission: 'drift.read', query: driftCsvQuerySchema }, async ({ db, query }) => {
  const { name, body } = await driftCsv(db, query);
  return new Response(body, { headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="drift-${name}.csv"` } });
});
