import { DataTable, type Column } from '@/app/_components/data-table.tsx';
import { formatBytes, shortHash } from '@/lib/dashboard/index.ts';
import type { SearchParamsLike, EnvironmentFileRow } from '@/lib/dashboard/index.ts';

const COLUMNS: Column<EnvironmentFileRow>[] = [
  { header: 'Path', sort: { key: 'path', value: (file) => file.path }, className: 'font-mono text-xs text-zinc-900', cell: (file) => file.path },
  {
    header: 'Size',
    sort: { key: 'size', value: (file) => file.size, firstDir: 'desc' },
    className: 'text-right tabular-nums text-zinc-700',
    cell: (file) => formatBytes(file.size),
  },
  {
    header: 'Mode',
    sort: { key: 'mode', value: (file) => file.executable },
    className: 'font-mono text-xs text-zinc-700',
    cell: (file) => (file.executable ? <span title="executable">rwx</span> : <span title="not executable">rw-</span>),
  },
  {
    header: 'Blob',
    className: 'font-mono text-xs text-zinc-500',
    cell: (file) => <span title={file.blobHash}>{shortHash(file.blobHash)}</span>,
  },
];

export function FilesTable({ files, path, params }: { files: EnvironmentFileRow[]; path: string; params: SearchParamsLike }) {
  return (
    <DataTable
      label="Files of this environment version"
      columns={COLUMNS}
      rows={files}
      rowKey={(file) => file.path}
      url={{ path, params }}
      defaultSort={{ key: 'path', dir: 'asc' }}
      noun="files"
      empty="No files."
    />
  );
}
