// Turns a raw task.toml into sections for display. Harbor task files carry keys
// we do not know about (version 2.0 adds several); all of them are shown.
import { parse } from 'smol-toml';
import { flattenEntries, isTable } from './flatten.ts';
import type { TaskTomlSection } from './types.ts';

export function taskTomlSections(raw: string): { sections: TaskTomlSection[]; doc: Record<string, unknown> | null; error: string | null } {
  let doc: Record<string, unknown>;
  try {
    doc = parse(raw);
  } catch (err) {
    return { sections: [], doc: null, error: err instanceof Error ? err.message : String(err) };
  }
  const topLevel = Object.fromEntries(Object.entries(doc).filter(([, value]) => !isTable(value)));
  const sections: TaskTomlSection[] = [];
  if (Object.keys(topLevel).length > 0) sections.push({ name: '', entries: flattenEntries(topLevel) });
  for (const [name, value] of Object.entries(doc)) {
    if (isTable(value)) sections.push({ name, entries: flattenEntries(value) });
  }
  return { sections, doc, error: null };
}
