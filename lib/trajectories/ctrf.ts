// Per-test results from the verifier's ctrf.json (Common Test Report Format), when it wrote one.
import { z } from 'zod';

const ctrfSchema = z.object({
  results: z.object({
    summary: z.object({ tests: z.number(), passed: z.number(), failed: z.number() }).partial().optional(),
    tests: z.array(
      z.object({
        name: z.string(),
        status: z.string(),
        duration: z.number().optional(),
        message: z.string().optional(),
      }),
    ),
  }),
});

export interface CtrfTest {
  name: string;
  status: string; // passed | failed | skipped | pending | other
  durationMs: number | null;
  message: string | null;
}

/** The tests of a stored ctrf.json; null when there is none or it is not CTRF. */
export function parseCtrf(text: string | null): CtrfTest[] | null {
  if (!text) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = ctrfSchema.safeParse(json);
  if (!parsed.success) return null;
  return parsed.data.results.tests.map((test) => ({
    name: test.name,
    status: test.status,
    durationMs: test.duration ?? null,
    message: test.message ?? null,
  }));
}
