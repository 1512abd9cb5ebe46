// Full-text search inside one trajectory, for the viewer: case-insensitive, literal.

/** Start offsets of every occurrence of `needle` in `text` (non-overlapping). */
export function findMatches(text: string, needle: string): number[] {
  if (!needle) return [];
  const haystack = text.toLowerCase();
  const target = needle.toLowerCase();
  const starts: number[] = [];
  for (let at = haystack.indexOf(target); at !== -1; at = haystack.indexOf(target, at + target.length)) starts.push(at);
  return starts;
}

/** `text` cut into plain and matching pieces, for rendering the matches highlighted. */
export function splitMatches(text: string, needle: string): { text: string; match: boolean }[] {
  const starts = findMatches(text, needle);
  if (starts.length === 0) return [{ text, match: false }];
  const pieces: { text: string; match: boolean }[] = [];
  let cursor = 0;
  for (const start of starts) {
    if (start > cursor) pieces.push({ text: text.slice(cursor, start), match: false });
    pieces.push({ text: text.slice(start, start + needle.length), match: true });
    cursor = start + needle.length;
  }
  if (cursor < text.length) pieces.push({ text: text.slice(cursor), match: false });
  return pieces;
}
