// Reads and rewrites the FROM lines of a Dockerfile. Building needs every
// external base image locally (there is no registry); stage names and
// `scratch` need nothing.
export interface FromLine {
  lineIndex: number;
  image: string; // as written, with ARG defaults substituted
  stage?: string; // the `AS name`, if any
}

const FROM_RE = /^\s*FROM\s+((?:--\S+\s+)*)(\S+)(?:\s+AS\s+(\S+))?\s*$/i;
const ARG_RE = /^\s*ARG\s+([A-Za-z_][A-Za-z0-9_]*)=("?)([^"\s]*)\2\s*$/i;

function substituteArgs(image: string, args: Map<string, string>): string {
  return image.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (whole, name: string) => args.get(name) ?? whole);
}

export function parseFromLines(dockerfile: string): FromLine[] {
  const args = new Map<string, string>(); // only ARGs before the first FROM apply to FROM
  const froms: FromLine[] = [];
  dockerfile.split('\n').forEach((line, lineIndex) => {
    const arg = froms.length === 0 ? ARG_RE.exec(line) : null;
    if (arg?.[1]) args.set(arg[1], arg[3] ?? '');
    const from = FROM_RE.exec(line);
    if (from?.[2]) froms.push({ lineIndex, image: substituteArgs(from[2], args), stage: from[3] });
  });
  return froms;
}

// FROM lines naming an image rather than an earlier stage or scratch.
export function externalFroms(froms: FromLine[]): FromLine[] {
  const stages = new Set<string>();
  const external: FromLine[] = [];
  for (const from of froms) {
    if (!stages.has(from.image.toLowerCase()) && from.image.toLowerCase() !== 'scratch') external.push(from);
    if (from.stage) stages.add(from.stage.toLowerCase());
  }
  return external;
}

export function rewriteFroms(dockerfile: string, rewrites: Array<{ line: FromLine; imageId: string }>): string {
  const lines = dockerfile.split('\n');
  for (const { line, imageId } of rewrites) {
    const stage = line.stage ? ` AS ${line.stage}` : '';
    lines[line.lineIndex] = `FROM ${imageId}${stage}`;
  }
  return lines.join('\n');
}
