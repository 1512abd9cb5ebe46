// A skill's delivery parameter: the step's data files as they are, gzip-compressed at image-build
// time (the bundle stays text), or base64-encoded. The solution first restores the files into a
// scratch directory and points $d at it, so the skill's own fragment runs unchanged.
import type { Delivery } from '../../difficulty/index.ts';
import type { DataFile } from './skill.ts';

export interface Delivered {
  files: DataFile[];
  build?: string;
}

export interface DeliveryShape {
  describe: string; // Markdown for the instruction
  suffix: string; // what the delivered file names end in
  deliver(files: DataFile[]): Delivered;
  restore: string[]; // solve lines run after $d is selected
}

const quote = (path: string) => `'${path}'`;

function base64Lines(text: string): string {
  return `${
    Buffer.from(text)
      .toString('base64')
      .match(/.{1,76}/g)
      ?.join('\n') ?? ''
  }\n`;
}

export const DELIVERY: Record<Exclude<Delivery, 'plain'>, DeliveryShape> = {
  gz: {
    describe: 'Every data file of this step is stored gzip-compressed: a file the step names `DATA/F` is `DATA/F.gz` on disk.',
    suffix: '.gz',
    deliver: (files) => ({ files, build: `gzip -n ${files.map((f) => quote(f.path)).join(' ')}\n` }),
    restore: [`src="$d"; d=$(mktemp -d)`, `cp -r "$src"/. "$d"`, `find "$d" -name '*.gz' -exec gunzip {} +`],
  },
  b64: {
    describe: 'Every data file of this step is stored base64-encoded: a file the step names `DATA/F` is `DATA/F.b64` on disk.',
    suffix: '.b64',
    deliver: (files) => ({ files: files.map((f) => ({ path: `${f.path}.b64`, content: base64Lines(f.content) })) }),
    restore: [
      `src="$d"; d=$(mktemp -d)`,
      `(cd "$src" && find . -type f -name '*.b64') | while read -r f; do mkdir -p "$d/$(dirname "$f")"; base64 -d "$src/$f" > "$d/\${f%.b64}"; done`,
    ],
  },
};
