// Claude names steps from the reference catalogue, so D prices them: the tool schema lists the
// catalogue's scenario and skill names as enums (tools.ts), and an answer that still uses a free
// name ("payments ledger", "joins with join/awk") is mapped to the nearest catalogue name, the
// mapping kept so the plan can show it. A free name would otherwise fall to the smoothing floor
// and D would measure the spelling, not the task.
import { REFERENCE_TABLE } from '../../difficulty/index.ts';
import type { Sequence } from '../../sequence/index.ts';

export const CATALOGUE_SCENARIOS: readonly string[] = [...REFERENCE_TABLE.scenarios.keys()].sort();
export const CATALOGUE_SKILLS: readonly string[] = [...REFERENCE_TABLE.skillMarginal.keys()].sort();

export interface NameMapping {
  stepId: string;
  field: 'scenario' | 'skill';
  from: string;
  to: string;
}

// Lower-case words: "Payments ledger (CSV)" → ["payments", "ledger", "csv"]; "+" parts are words too.
const words = (name: string): string[] => name.toLowerCase().match(/[a-z0-9]+/g) ?? [];

// Shared words over all words, with a small bonus for a shared prefix of the first word, so
// "ledger of payments" finds payments-ledger and "jq" finds jq-query.
function similarity(free: string[], candidate: string[]): number {
  const a = new Set(free);
  const b = new Set(candidate);
  const shared = [...a].filter((w) => b.has(w) || [...b].some((c) => c.startsWith(w) || w.startsWith(c))).length;
  return shared / new Set([...a, ...b]).size;
}

/** The catalogue name nearest a free name, or null when it shares no word with any. */
export function nearestCatalogueName(kind: 'scenario' | 'skill', name: string): string | null {
  const catalogue = kind === 'scenario' ? CATALOGUE_SCENARIOS : CATALOGUE_SKILLS;
  if (catalogue.includes(name)) return name;
  const free = words(name);
  const normalised = free.join('-');
  if (catalogue.includes(normalised)) return normalised;
  let best: { name: string; score: number } | null = null;
  for (const candidate of catalogue) {
    const score = similarity(free, words(candidate));
    // Ties go to the shorter (plainer) name: the free name said nothing about layout or noise.
    if (score > 0 && (!best || score > best.score || (score === best.score && candidate.length < best.name.length))) best = { name: candidate, score };
  }
  return best?.name ?? null;
}

/**
 * The sequence with every name in the catalogue, the mappings made, and the names nothing matched.
 * `kept` are names taken as they are (a parent's own names: a plan must not rename what it keeps).
 */
export function toCatalogue(sequence: Sequence, kept: ReadonlySet<string> = new Set()): { sequence: Sequence; mapped: NameMapping[]; problems: string[] } {
  const mapped: NameMapping[] = [];
  const problems: string[] = [];
  const steps = sequence.steps.map((step) => {
    const next = { ...step };
    for (const field of ['scenario', 'skill'] as const) {
      if (kept.has(step[field])) continue;
      const to = nearestCatalogueName(field, step[field]);
      if (to === null) problems.push(`step ${step.id}: ${field} "${step[field]}" is no catalogue name and none is near it; use a name from the tool's enum`);
      else if (to !== step[field]) {
        mapped.push({ stepId: step.id, field, from: step[field], to });
        next[field] = to;
      }
    }
    return next;
  });
  return { sequence: { steps }, mapped, problems };
}

export const describeMappings = (mapped: NameMapping[]): string =>
  `names mapped to the catalogue: ${mapped.map((m) => `${m.stepId}.${m.field} "${m.from}" → ${m.to}`).join('; ')}`;
