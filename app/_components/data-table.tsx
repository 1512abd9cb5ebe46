// The shared data table: a bordered card, a muted header row, one row per item. Pages give the
// columns (header + cell) and, when rows are selectable or link somewhere, per-row props.
import type { HTMLAttributes, ReactNode, Ref } from 'react';

export interface Column<Row> {
  header: ReactNode;
  cell: (row: Row, index: number) => ReactNode;
  className?: string; // for the header and the cells, e.g. 'text-right tabular-nums'
}

type RowProps = HTMLAttributes<HTMLTableRowElement> & { ref?: Ref<HTMLTableRowElement>; 'data-testid'?: string; 'aria-selected'?: boolean };

export function DataTable<Row>(props: {
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowProps?: (row: Row, index: number) => RowProps;
  empty?: ReactNode;
}) {
  if (props.rows.length === 0) {
    return <p className="rounded-lg border border-zinc-200 bg-white px-4 py-6 text-center text-sm text-zinc-500">{props.empty ?? 'Nothing to show.'}</p>;
  }
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-left text-sm" aria-label={props.label}>
        <thead className="bg-zinc-50 text-xs text-zinc-500">
          <tr>
            {props.columns.map((column, i) => (
              <th key={i} scope="col" className={`px-3 py-2 font-medium first:pl-4 last:pr-4 ${column.className ?? ''}`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, index) => {
            const extra = props.rowProps?.(row, index) ?? {};
            return (
              <tr key={props.rowKey(row)} {...extra} className={`border-t border-zinc-100 ${extra.className ?? 'hover:bg-zinc-50'}`}>
                {props.columns.map((column, i) => (
                  <td key={i} className={`px-3 py-2 first:pl-4 last:pr-4 ${column.className ?? ''}`}>
                    {column.cell(row, index)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
