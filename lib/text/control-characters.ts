// Text a person types into a search or filter never holds control characters; NUL in particular
// ends a string in SQLite's LIKE (matching everything) and is refused by PostgreSQL (a 500).
// Built from code points so this source file stays printable.
const CONTROL = new RegExp(`[${String.fromCharCode(0)}-${String.fromCharCode(0x1f)}${String.fromCharCode(0x7f)}]`);

export function hasNoControlCharacters(text: string): boolean {
  return !CONTROL.test(text);
}

export const CONTROL_CHARACTERS_MESSAGE = 'search text may not contain control characters';
