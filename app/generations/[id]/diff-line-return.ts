// A missed issue filed from a diff line brings the reviewer back to that line: the form's
// link carries the line (file, line, attempt), and after filing the review page is opened with
// the file expanded, the line in view and the filed issue marked under it.

export interface DiffLineRef {
  path: string;
  line: number;
  attempt?: number;
}

export interface FiledOnLine extends DiffLineRef {
  issueId: string;
}

export function reviewLineHref(generationId: string, { path, line, attempt, issueId }: FiledOnLine): string {
  const query = new URLSearchParams({ file: path, line: String(line), filed: issueId });
  if (attempt !== undefined) query.set('attempt', String(attempt));
  return `/generations/${generationId}?${query.toString()}`;
}

const positiveInt = (raw: string | undefined) => (raw && /^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : undefined);

export function parseFiledOnLine(query: { file?: string; line?: string; filed?: string }): FiledOnLine | null {
  const line = positiveInt(query.line);
  if (!query.file || !line || !query.filed) return null;
  return { path: query.file, line, issueId: query.filed };
}

export function parseAttempt(raw: string | undefined): number | undefined {
  return positiveInt(raw);
}
