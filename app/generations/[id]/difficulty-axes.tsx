import type { DifficultyAxes as Axes } from '@/lib/dashboard/index.ts';

const ROWS: { key: keyof Omit<Axes, 'model' | 'unknown'>; label: string }[] = [
  { key: 'length', label: 'L (expected turns)' },
  { key: 'scenario', label: 'Scenario novelty' },
  { key: 'skill', label: 'Skill rarity' },
  { key: 'total', label: 'Total D' },
];

// An unknown D (an undescribed step) is said in words on every axis, never shown as a number or a dash.
const fmt = (value: number | null, axes: Axes) => axes.unknown ?? (value === null ? '—' : value.toFixed(2));

function change(parent: number | null, child: number | null) {
  if (parent === null || child === null) return <span className="text-zinc-400">—</span>;
  const delta = child - parent;
  const style = delta > 0 ? 'text-emerald-700' : delta < 0 ? 'text-red-700' : 'text-zinc-500';
  return (
    <span className={style}>
      {delta > 0 ? '+' : ''}
      {delta.toFixed(2)}
    </span>
  );
}

export function DifficultyAxes({ parent, child }: { parent: Axes; child: Axes }) {
  return (
    <table className="w-full text-left text-sm tabular-nums" data-testid="difficulty">
      <thead className="text-xs text-zinc-500">
        <tr>
          <th scope="col" className="py-1 font-medium">
            Axis
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Parent
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Child
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Change
          </th>
        </tr>
      </thead>
      <tbody>
        {ROWS.map(({ key, label }) => (
          <tr key={key} className={`border-t border-zinc-100 ${key === 'total' ? 'font-semibold' : ''}`}>
            <th scope="row" className="py-1 font-normal">
              {label}
            </th>
            <td className="py-1 text-right">{fmt(parent[key], parent)}</td>
            <td className="py-1 text-right">{fmt(child[key], child)}</td>
            <td className="py-1 text-right">{change(parent[key], child[key])}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={4} className="pt-1.5 text-xs text-zinc-500">
            reference model {child.model ?? parent.model ?? '—'}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
