'use client';
// A lead turns a missed issue into a rubric item: every field starts from the reviewer's
// words and can be edited. "Draft + backtest", the usual path, stores it inactive and queues
// its backtest, which answers whether it would have caught this issue's generation; "Create
// and activate" puts it in force for every later generation at once, unchecked.
import { useActionState } from 'react';
import { convertMissedIssueAction, dismissMissedIssueAction } from '../actions.ts';
import type { ConversionDraft } from '@/lib/missed-issues/index.ts';
import type { ActionResult } from '../action-result.ts';
import { Field } from '@/app/_components/field.tsx';
import { buttonClass, inputClass, primaryButtonClass } from '@/app/_components/ui.ts';
import { ResultBanner } from './fields.tsx';

export function ConvertForm({ issueId, draft, lineageName }: { issueId: string; draft: ConversionDraft; lineageName: string }) {
  const [result, submit, pending] = useActionState<ActionResult | null, FormData>(convertMissedIssueAction.bind(null, issueId), null);
  const [dismissed, dismiss, dismissing] = useActionState<ActionResult | null>(dismissMissedIssueAction.bind(null, issueId), null);
  const errors = result && !result.ok ? result.fieldErrors : {};
  return (
    <div className="flex flex-col gap-3">
      <form action={submit} aria-label="Convert to a rubric item" className="flex flex-col gap-4">
        <ResultBanner result={result} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="ci-title" label="Item title" error={errors.title}>
            {(d, invalid) => (
              <input id="ci-title" name="title" defaultValue={draft.title} required className={inputClass} aria-describedby={d} aria-invalid={invalid} />
            )}
          </Field>
          <Field id="ci-key" label="Key" hint={`Leave empty to derive it from the title (${draft.key}).`} error={errors.key}>
            {(d, invalid) => (
              <input id="ci-key" name="key" placeholder={draft.key} className={`${inputClass} font-mono`} aria-describedby={d} aria-invalid={invalid} />
            )}
          </Field>
        </div>
        <Field id="ci-description" label="Why the item exists" hint="Shown to reviewers and to the LLM judge." error={errors.description}>
          {(d, invalid) => (
            <textarea
              id="ci-description"
              name="description"
              defaultValue={draft.description}
              rows={3}
              required
              className={inputClass}
              aria-describedby={d}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <Field id="ci-check" label="Executable check" hint="Bash in /bundle (read-only); exit 0 = passes. Empty for an LLM-only item." error={errors.check}>
          {(d, invalid) => (
            <textarea
              id="ci-check"
              name="check"
              defaultValue={draft.check}
              rows={4}
              spellCheck={false}
              className={`${inputClass} font-mono`}
              aria-describedby={d}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <Field id="ci-question" label="Question for the LLM judge" hint="Yes/no, “yes” = passes. Empty for a check-only item." error={errors.question}>
          {(d, invalid) => (
            <textarea
              id="ci-question"
              name="question"
              defaultValue={draft.question}
              rows={2}
              className={inputClass}
              aria-describedby={d}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="ci-scope" label="Scope" error={errors.scope}>
            {(d) => (
              <select id="ci-scope" name="scope" defaultValue={draft.scope} className={inputClass} aria-describedby={d}>
                <option value="global">global: every lineage</option>
                <option value="lineage">this lineage only ({lineageName})</option>
              </select>
            )}
          </Field>
          <Field
            id="ci-applies"
            label="Judges"
            hint="Plan items run in the plan reviewer on plan.json; environment items in the rubric validator."
            error={errors.appliesTo}
          >
            {(d) => (
              <select id="ci-applies" name="appliesTo" defaultValue={draft.appliesTo} className={inputClass} aria-describedby={d}>
                <option value="environment">the environment (rubric validator)</option>
                <option value="plan">the plan (plan reviewer)</option>
                <option value="both">both</option>
              </select>
            )}
          </Field>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value="convert-backtest" disabled={pending} className={primaryButtonClass}>
            Draft + backtest
          </button>
          <button type="submit" name="intent" value="convert" disabled={pending} className={buttonClass}>
            Draft only
          </button>
          <button type="submit" name="intent" value="convert-activate" disabled={pending} className={buttonClass}>
            Create and activate
          </button>
        </div>
      </form>
      <form action={dismiss} className="border-t border-zinc-200 pt-3">
        <ResultBanner result={dismissed} />
        <button type="submit" disabled={dismissing} className={`${buttonClass} text-red-700`}>
          Dismiss this issue
        </button>
      </form>
    </div>
  );
}
