// Turns lib/calibration's errors into JSON answers; anything else is a real failure and rethrown.
import { CalibrationConflictError, CalibrationInputError, CalibrationNotFoundError } from '@/lib/calibration/index.ts';

export async function respond(body: () => Promise<unknown>, status = 200): Promise<Response> {
  try {
    return Response.json(await body(), { status });
  } catch (err) {
    if (err instanceof CalibrationInputError) return Response.json({ error: 'bad_request', message: err.message }, { status: 400 });
    if (err instanceof CalibrationNotFoundError) return Response.json({ error: 'not_found', message: err.message }, { status: 404 });
    if (err instanceof CalibrationConflictError) return Response.json({ error: 'conflict', message: err.message }, { status: 409 });
    throw err;
  }
}

export async function jsonBody(request: Request): Promise<unknown> {
  return request.json().catch(() => null);
}
