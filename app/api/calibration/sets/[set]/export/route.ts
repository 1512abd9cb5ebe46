// GET ?what=labels|metrics&format=csv|jsonl: a download of the set's labels or metrics (leads).
import { route } from '@/app/_server/route.ts';
import { exportCalibration, exportQuerySchema, setParamsSchema } from '@/lib/calibration/index.ts';

export const GET = route(
  { permission: 'calibration.manage', params: setParamsSchema, query: exportQuerySchema },
  async ({ db, params: { set }, query: { what, format } }) => {
    const body = await exportCalibration(db, set, what, format);
    return new Response(body, {
      headers: {
        'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        'content-disposition': `attachment; filename="calibration-${set}-${what}.${format}"`,
      },
    });
  },
);
