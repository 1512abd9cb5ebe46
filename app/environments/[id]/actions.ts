'use server';
// Describing an imported seed from its page: a reviewer sets its scenario–skill sequence from the
// reference names. lib validates, versions it in the metadata and audits it with the user.
import { revalidatePath } from 'next/cache';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { describeImportedSeed, parseSequenceSpec, SequenceRefused } from '@/lib/evolution/index.ts';

export interface DescribeState {
  error: string | null;
  message: string | null;
}

export async function describeSeedAction(versionId: string, _previous: DescribeState, form: FormData): Promise<DescribeState> {
  const user = await requirePermission('environment.validate');
  const spec = form.get('sequence');
  if (typeof spec !== 'string' || spec.trim() === '') return { error: 'Give scenario:skill pairs, comma-separated.', message: null };
  try {
    const described = await describeImportedSeed(await requestDb(), versionId, parseSequenceSpec(spec), { id: user.id, email: user.email });
    revalidatePath(`/environments/${versionId}`);
    return {
      error: null,
      message: `Sequence revision ${described.revision}: D ${described.difficulty.total.toFixed(2)} (L ${described.difficulty.length} turns).`,
    };
  } catch (err) {
    if (err instanceof SequenceRefused) return { error: err.message, message: null };
    throw err;
  }
}
