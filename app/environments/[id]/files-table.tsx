import { formatBytes, shortHash } from '@/lib/dashboard/index.ts';
import type { EnvironmentFileRow } from '@/lib/dashboard/index.ts';

export function FilesTable({ files }: { files: EnvironmentFileRow[] }) {
  return (
    <table className="min-w-full text-sm">
      <caption className="sr-only">Files of this environment version</caption>
      <thead className="text-left text-xs text-zinc-500">
        <tr>
          <th scope="col" className="py-1.5 pr-4 font-medium">
            Path
          </th>
          <th scope="col" className="py-1.5 pr-4 text-right font-medium">
            Size
          </th>
          <th scope="col" className="py-1.5 pr-4 font-medium">
            Mode
          </th>
          <th scope="col" className="py-1.5 font-medium">
            Blob
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100">
        {files.map((file) => (
          <tr key={file.path}>
            <td className="py-1.5 pr-4 font-mono text-xs text-zinc-900">{file.path}</td>
            <td className="py-1.5 pr-4 text-right tabular-nums text-zinc-700">{formatBytes(file.size)}</td>
            <td className="py-1.5 pr-4 font-mono text-xs text-zinc-700">
              {file.executable ? <span title="executable">rwx</span> : <span title="not executable">rw-</span>}
            </td>
            <td className="py-1.5 font-mono text-xs text-zinc-500" title={file.blobHash}>
              {shortHash(file.blobHash)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
