import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED_FILTER } from '@/lib/gate/funnel.ts';
import type { SeedFunnelVerdict } from '@/lib/gate/seed-funnel-gate.ts';
import { SeedFunnel } from './seed-funnel.tsx';

const verdict = (v: Partial<SeedFunnelVerdict>): SeedFunnelVerdict => ({
  kind: 'not-kept',
  seedVersionId: 'f'.repeat(64),
  seedName: 'logs',
  policy: 'trainer',
  policyVersion: 'step-20',
  thresholds: DEFAULT_SEED_FILTER,
  passes: 6,
  size: 8,
  meanTurns: null,
  turnsChecked: false,
  failed: ['pass-rate'],
  message: 'the seed funnel has not kept logs under trainer checkpoint step-20: 6/8 passes > 4/8 (fails the pass-rate bar)',
  ...v,
});
const html = (funnel: Parameters<typeof SeedFunnel>[0]['funnel']) => renderToStaticMarkup(createElement(SeedFunnel, { funnel }));

describe("the lineage page's seed funnel section", () => {
  it('shows a refused seed with its numbers and how to override it', () => {
    const page = html({ verdict: verdict({}), override: null, evolved: false });
    expect(page).toContain('not kept');
    expect(page).toContain('6/8 passes &gt; 4/8 (fails the pass-rate bar)');
    expect(page).toContain(`envolve evolve ${'f'.repeat(12)} --force --reason`);
  });

  it('shows an override with who, when, why and what the funnel said then', () => {
    const then = verdict({ kind: 'waiting', message: "the seed funnel waits for the trainer's group on the seed logs" });
    const page = html({
      verdict: verdict({}),
      override: { by: 'envolve:demo', at: '2026-05-01T10:20:00.000Z', reason: 'demo', demoMode: true, verdict: then },
      evolved: true,
    });
    expect(page).toContain('Overridden (demo mode) by <span class="font-medium">envolve:demo</span>');
    expect(page).toContain('2026-05-01 10:20 UTC');
    expect(page).toContain('The funnel then said: the seed funnel waits for the trainer&#x27;s group on the seed logs');
    expect(page).not.toContain('--force');
  });
});
