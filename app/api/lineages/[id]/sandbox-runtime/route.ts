// PATCH /api/lineages/:id/sandbox-runtime {sandboxRuntime: 'runc' | 'runsc' | null} (leads;
// audited): the runtime of the lineage's later trials and checks; null returns it to the
// deployment's default. An environment's task.toml may still require runsc.
import { route } from '@/app/_server/route.ts';
import { lineageParamsSchema } from '@/lib/dashboard/index.ts';
import { lineageSandboxRuntimePatchSchema, setLineageSandboxRuntime, lineageSandboxRuntime } from '@/lib/evolution/index.ts';

export const PATCH = route(
  { permission: 'lineage.configure', params: lineageParamsSchema, body: lineageSandboxRuntimePatchSchema },
  async ({ db, user, params, body }) => {
    const { settings } = await setLineageSandboxRuntime(db, user, params.id, body);
    return { lineageId: params.id, sandboxRuntime: lineageSandboxRuntime(settings) };
  },
);
