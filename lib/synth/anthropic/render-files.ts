// A task's files as the model reads them: text files in full, with their paths; binary files
// and files too large for the prompt only by size and digest (large text files with their first
// lines, so the model knows the format). The modifier may only rewrite files it saw in full.
import type { TaskBundle } from '../../bundle/index.ts';
import { METADATA_SIDECAR, sha256Hex, formatBytes, comparePaths, notTextReason } from '../../env/index.ts';

export interface RenderLimits {
  maxFileBytes: number; // a text file larger than this is described, not shown
  maxTotalBytes: number; // once this much text is shown, further files are described
  headBytes: number; // how much of a large text file is shown as a sample
}

export const DEFAULT_RENDER_LIMITS: RenderLimits = { maxFileBytes: 64 * 1024, maxTotalBytes: 512 * 1024, headBytes: 2048 };

export interface RenderedFiles {
  text: string;
  shownInFull: Set<string>; // paths the model saw completely
}

export function renderTaskFiles(bundle: TaskBundle, limits: RenderLimits = DEFAULT_RENDER_LIMITS): RenderedFiles {
  const shownInFull = new Set<string>();
  let budget = limits.maxTotalBytes;
  const files = bundle.files.filter((f) => f.path !== METADATA_SIDECAR).sort((a, b) => comparePaths(a.path, b.path));
  const parts = files.map((file) => {
    const attributes = `path=${JSON.stringify(file.path)} bytes="${file.content.length}" executable="${file.executable}"`;
    const digest = `${formatBytes(file.content.length)}, sha256 ${sha256Hex(file.content)}`;
    if (notTextReason(file.content)) {
      return `<file ${attributes} shown="digest">(binary, ${digest}; cannot be shown or rewritten)</file>`;
    }
    if (file.content.length > limits.maxFileBytes || file.content.length > budget) {
      const head = file.content
        .subarray(0, limits.headBytes)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
      return `<file ${attributes} shown="head">(text, ${digest}; too large to show in full or rewrite; its first ${formatBytes(limits.headBytes)}:)\n${head}\n</file>`;
    }
    budget -= file.content.length;
    shownInFull.add(file.path);
    return `<file ${attributes}>\n${file.content.toString('utf8')}\n</file>`;
  });
  return { text: `<task name=${JSON.stringify(bundle.name)}>\n${parts.join('\n')}\n</task>`, shownInFull };
}
