// Flattens a parsed TOML or JSON object into display rows: nested tables become
// dotted keys, scalar arrays a comma-separated list.

export interface DisplayEntry {
  key: string;
  value: string;
}

export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function displayValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    return value.every((item) => !isTable(item) && !Array.isArray(item)) ? value.map(displayValue).join(', ') : JSON.stringify(value);
  }
  if (isTable(value)) return JSON.stringify(value);
  return String(value);
}

export function flattenEntries(table: Record<string, unknown>, prefix = ''): DisplayEntry[] {
  return Object.entries(table).flatMap(([key, value]) =>
    isTable(value) ? flattenEntries(value, `${prefix}${key}.`) : [{ key: `${prefix}${key}`, value: displayValue(value) }],
  );
}

/** Display rows for a JSON object column; unparsable or non-object JSON is shown as one raw row. */
export function jsonEntries(raw: string | null): DisplayEntry[] {
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return isTable(parsed) ? flattenEntries(parsed) : [{ key: 'value', value: raw }];
  } catch {
    return [{ key: 'raw', value: raw }];
  }
}
