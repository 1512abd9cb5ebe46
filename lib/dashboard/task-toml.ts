// Turns a raw task.toml into sections for display. Harbor task files carry keys
// we do not know about (version 2.0 adds several); all of them are shown.
import { parse } from 'smol-toml';
import type { TaskTomlSection } from './types.ts';

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function displayValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    return value.every((item) => !isTable(item) && !Array.isArray(item))
      ? value.map(displayValue).join(', ')
      : JSON.stringify(value);
  }
  if (isTable(value)) return JSON.stringify(value);
  return String(value);
}

// Nested tables become dotted keys inside their top-level section.
function flatten(table: Record<string, unknown>, prefix = ''): TaskTomlSection['entries'] {
  return Object.entries(table).flatMap(([key, value]) =>
    isTable(value) ? flatten(value, `${prefix}${key}.`) : [{ key: `${prefix}${key}`, value: displayValue(value) }],
  );
}

export function taskTomlSections(raw: string): { sections: TaskTomlSection[]; error: string | null } {
  let doc: Record<string, unknown>;
  try {
    doc = parse(raw);
  } catch (err) {
    return { sections: [], error: err instanceof Error ? err.message : String(err) };
  }
  const topLevel = Object.fromEntries(Object.entries(doc).filter(([, value]) => !isTable(value)));
  const sections: TaskTomlSection[] = [];
  if (Object.keys(topLevel).length > 0) sections.push({ name: '', entries: flatten(topLevel) });
  for (const [name, value] of Object.entries(doc)) {
    if (isTable(value)) sections.push({ name, entries: flatten(value) });
  }
  return { sections, error: null };
}
