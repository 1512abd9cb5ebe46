// Composed names (reference ref-2027.1): a domain (the kind of data: web-access-log,
// payments-ledger …), the layout its file comes in, and the noise an export carries, written
// `domain[+layout][+noise]`. The native layout and clean data are the defaults and are not
// written, so every ref-2026.12 name is still the same scenario.
export const LAYOUTS = ['native', 'csv', 'tsv', 'jsonl'] as const;
export const NOISES = ['clean', 'comments', 'crlf', 'banner', 'bom'] as const;
export type Layout = (typeof LAYOUTS)[number];
export type Noise = (typeof NOISES)[number];

export interface ScenarioParts {
  domain: string;
  layout: Layout;
  noise: Noise;
}

export function composeScenario(parts: ScenarioParts): string {
  return [parts.domain, ...(parts.layout === 'native' ? [] : [parts.layout]), ...(parts.noise === 'clean' ? [] : [parts.noise])].join('+');
}

/** The parts of a composed name, or null when a suffix is no known layout or noise (or repeats one). */
export function scenarioParts(name: string): ScenarioParts | null {
  const [domain, ...suffixes] = name.split('+');
  if (!domain) return null;
  let layout: Layout = 'native';
  let noise: Noise = 'clean';
  for (const [i, suffix] of suffixes.entries()) {
    if (i === 0 && (LAYOUTS as readonly string[]).includes(suffix) && suffix !== 'native') layout = suffix as Layout;
    else if (i === suffixes.length - 1 && noise === 'clean' && (NOISES as readonly string[]).includes(suffix) && suffix !== 'clean') noise = suffix as Noise;
    else return null;
  }
  return composeScenario({ domain, layout, noise }) === name ? { domain, layout, noise } : null;
}

// Skills with a parameter (ref-2027.1): how the step's data files are delivered, written
// `skill[+delivery]` — as they are (not written), gzip-compressed, or base64-encoded.
export const DELIVERIES = ['plain', 'gz', 'b64'] as const;
export type Delivery = (typeof DELIVERIES)[number];

export interface SkillParts {
  base: string;
  delivery: Delivery;
}

export const composeSkill = (parts: SkillParts): string => (parts.delivery === 'plain' ? parts.base : `${parts.base}+${parts.delivery}`);

export function skillParts(name: string): SkillParts | null {
  const [base, delivery, ...rest] = name.split('+');
  if (!base || rest.length > 0) return null;
  if (delivery === undefined) return { base, delivery: 'plain' };
  return delivery === 'gz' || delivery === 'b64' ? { base, delivery } : null;
}
