import type { SequenceView } from '@/lib/dashboard/index.ts';
import type { Step } from '@/lib/sequence/index.ts';

// Parent and child scenario–skill sequences side by side. Inserted child steps and the
// replaced scenario or skill cells are highlighted: they are exactly what the generation changed.
function SequenceTable({ caption, steps, inserted, replaced }: { caption: string; steps: Step[] | null; inserted: Set<string>; replaced: Set<string> }) {
  if (!steps) return <p className="text-sm text-zinc-500">{caption}: no sequence recorded.</p>;
  const cell = (step: Step, field: 'scenario' | 'skill') => (replaced.has(`${step.id}:${field}`) ? 'bg-amber-100 font-medium text-amber-950' : '');
  return (
    <table className="w-full table-fixed text-left text-sm">
      <caption className="pb-1.5 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">{caption}</caption>
      <thead className="text-xs text-zinc-500">
        <tr>
          <th scope="col" className="w-16 py-1 pr-2 font-medium">
            Step
          </th>
          <th scope="col" className="py-1 pr-2 font-medium">
            Scenario
          </th>
          <th scope="col" className="py-1 font-medium">
            Skill
          </th>
        </tr>
      </thead>
      <tbody>
        {steps.map((step) => {
          const isInserted = inserted.has(step.id);
          return (
            <tr key={step.id} data-inserted={isInserted || undefined} className={`border-t border-zinc-100 align-top ${isInserted ? 'bg-emerald-50' : ''}`}>
              <td className="py-1 pr-2 font-mono text-xs text-zinc-600">
                {step.id}
                {isInserted && <span className="ml-1 rounded bg-emerald-600 px-1 text-[10px] font-semibold text-white">new</span>}
              </td>
              <td className={`break-words py-1 pr-2 ${cell(step, 'scenario')}`}>{step.scenario}</td>
              <td className={`break-words py-1 ${cell(step, 'skill')}`}>{step.skill}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function SequenceEdit({ sequence }: { sequence: SequenceView }) {
  const inserted = new Set(sequence.inserted);
  const replaced = new Set(sequence.replaced.map((r) => `${r.stepId}:${r.field}`));
  return (
    <div className="flex flex-col gap-3">
      <div className="grid gap-4 md:grid-cols-2">
        <SequenceTable caption="Parent" steps={sequence.parent} inserted={new Set()} replaced={new Set()} />
        <SequenceTable caption="Child" steps={sequence.child} inserted={inserted} replaced={replaced} />
      </div>
      <ul className="flex flex-col gap-0.5 text-xs text-zinc-600">
        {sequence.inserted.map((id) => (
          <li key={id}>
            <span className="font-medium text-emerald-800">inserted</span> step <code className="font-mono">{id}</code>
          </li>
        ))}
        {sequence.replaced.map((r) => (
          <li key={`${r.stepId}:${r.field}`}>
            <span className="font-medium text-amber-800">replaced</span> {r.field} of <code className="font-mono">{r.stepId}</code>: {r.from} → {r.to}
          </li>
        ))}
      </ul>
    </div>
  );
}
