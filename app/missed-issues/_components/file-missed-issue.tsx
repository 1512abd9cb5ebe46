'use client';
// "File a missed issue" on one generation: self-contained (form + server action), so the
// generation review page can embed it and /generations/[id]/missed-issue/new shows it alone.
// Once filed, the form is gone (a second press cannot file it again): a marker links to the
// issue, and a form opened from a diff line returns the reviewer to that line.
import Link from 'next/link';
import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { useActionState, useEffect } from 'react';
import { fileMissedIssueAction } from '../actions.ts';
import { CHECK_MAX_BYTES, SEVERITIES, VALIDATOR_KINDS } from '@/lib/missed-issues/browser.ts';
import type { MissedIssueDraft } from '@/lib/missed-issues/index.ts';
import type { ActionResult } from '../action-result.ts';
import { Field } from '@/app/_components/field.tsx';
import { inputClass, primaryButtonClass } from '@/app/_components/ui.ts';
import { ResultBanner } from './fields.tsx';
import { reviewLineHref, type DiffLineRef } from '@/app/generations/[id]/diff-line-return.ts';

const VALIDATOR_LABELS: Record<(typeof VALIDATOR_KINDS)[number], string> = {
  oracle: 'Oracle (the reference solution should have failed)',
  'invalid-test': 'Invalid-test (doing nothing should have scored 0)',
  rubric: 'Rubric (a quality rule of the environment)',
  'plan-review': 'Plan review (the sequence edit should have been sent back)',
};

// `draft` pre-fills the form with where the problem was seen (lib/missed-issues/prefill.ts).
// `from` is the diff line the form was opened on, if any.
export function FileMissedIssue({
  generationId,
  draft,
  from,
  autoFocus = false,
}: {
  generationId: string;
  draft?: MissedIssueDraft;
  from?: DiffLineRef;
  autoFocus?: boolean;
}) {
  const [result, submit, pending] = useActionState<ActionResult | null, FormData>(fileMissedIssueAction.bind(null, generationId), null);
  const router = useRouter();
  const filedId = result?.ok ? result.id : undefined;
  const returnHref = filedId && from ? reviewLineHref(generationId, { ...from, issueId: filedId }) : null;
  useEffect(() => {
    if (returnHref) router.push(returnHref as Route);
  }, [returnHref, router]);
  if (result?.ok) return <FiledMarker result={result} returnHref={returnHref} from={from} />;
  const errors = result && !result.ok ? result.fieldErrors : {};
  return (
    <form action={submit} aria-label="File a missed issue" className="flex max-w-3xl flex-col gap-4">
      <ResultBanner result={result} />
      <Field id="mi-title" label="What is wrong" error={errors.title}>
        {(d, invalid) => (
          <input
            id="mi-title"
            name="title"
            defaultValue={draft?.title}
            autoFocus={autoFocus}
            required
            minLength={3}
            maxLength={200}
            className={inputClass}
            aria-describedby={d}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <Field id="mi-description" label="Description" hint="What you saw, where, and why the validators should have caught it." error={errors.description}>
        {(d, invalid) => (
          <textarea
            id="mi-description"
            name="description"
            defaultValue={draft?.description}
            required
            rows={6}
            className={inputClass}
            aria-describedby={d}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="mi-severity" label="Severity" error={errors.severity}>
          {(d) => (
            <select id="mi-severity" name="severity" defaultValue="medium" className={inputClass} aria-describedby={d}>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="mi-validator" label="Which validator should have caught it" error={errors.validatorKind}>
          {(d) => (
            <select id="mi-validator" name="validatorKind" defaultValue={draft?.validatorKind ?? 'rubric'} className={inputClass} aria-describedby={d}>
              {VALIDATOR_KINDS.map((k) => (
                <option key={k} value={k}>
                  {VALIDATOR_LABELS[k]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Field
        id="mi-check"
        label="Executable check (optional)"
        hint={`A bash predicate run in a sandbox with the environment's files read-only in /bundle (the working directory); exit 0 means the environment passes. At most ${CHECK_MAX_BYTES} bytes.`}
        error={errors.check}
      >
        {(d, invalid) => (
          <textarea
            id="mi-check"
            name="check"
            rows={4}
            spellCheck={false}
            placeholder={`test "$(grep -c '^## Step ' instruction.md)" -ge 4`}
            className={`${inputClass} font-mono`}
            aria-describedby={d}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <Field
        id="mi-question"
        label="Question for the LLM judge (optional)"
        hint="A yes/no question; “yes” means the environment passes."
        error={errors.question}
      >
        {(d, invalid) => <textarea id="mi-question" name="question" rows={2} className={inputClass} aria-describedby={d} aria-invalid={invalid} />}
      </Field>
      <div>
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? 'Filing…' : 'File missed issue'}
        </button>
      </div>
    </form>
  );
}

function FiledMarker({ result, returnHref, from }: { result: ActionResult & { ok: true }; returnHref: string | null; from?: DiffLineRef }) {
  return (
    <div
      role="status"
      data-testid="missed-issue-filed"
      className="flex max-w-3xl flex-col gap-1 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
    >
      <p>
        {result.message}{' '}
        {result.href && (
          <Link href={result.href as Route} className="font-medium underline">
            Open it
          </Link>
        )}
      </p>
      {returnHref && from && (
        <p>
          Returning to{' '}
          <Link href={returnHref as Route} className="underline">
            line {from.line} of {from.path}
          </Link>
          …
        </p>
      )}
    </div>
  );
}
