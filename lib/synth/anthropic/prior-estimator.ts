// Claude's estimate of a reference prior for a scenario or skill name the shipped table does not
// know (lib/difficulty). One small forced call per name; lib/difficulty caches the answers. The
// method prompt is the first cached block, shared with the synthesiser's calls; the estimation
// rules are a second, so repeated estimates read both from the cache.
import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { PriorEstimator } from '../../difficulty/index.ts';
import type { Settings } from '../../config/index.ts';
import { resolveAnthropicConfig, type AnthropicOptions } from './config.ts';
import { methodBlock } from './prefix.ts';
import { ClaudeToolClient } from './tool-client.ts';
import type { CallUsage, UsageTotals } from './usage.ts';

const PRIOR_RULES = `# Estimating reference priors
Envolve's difficulty uses a reference distribution from world knowledge, not any model's policy:
- p(σ) for a scenario σ: how often an engineer working at a terminal meets this kind of situation or data, among all the situations they meet. Everyday ones (web-server access logs, application config, CI output) are around 0.05–0.1; common-in-some-jobs ones (payments ledgers, sensor feeds, cron tables) around 0.02–0.05; niche ones (mail spools, FASTA files, library catalogues) around 0.005–0.02; exotic ones lower still.
- p(κ | σ) for a skill κ given a scenario σ: how often, when working in σ, the work uses κ rather than another technique. Natural pairings (jq on JSON, awk on line-oriented logs) are high, around 0.1–0.3; plausible but unusual ones low; skills that barely fit σ very low.
Answer with one probability strictly between 0 and 1 by calling estimate_prior. Judge the name as written; do not correct or reinterpret it.`;

export class AnthropicPriorEstimator implements PriorEstimator {
  private readonly client: ClaudeToolClient;
  private readonly system: TextBlockParam[] = [methodBlock(), { type: 'text', text: PRIOR_RULES, cache_control: { type: 'ephemeral' } }];

  constructor(options: AnthropicOptions = {}, fromSettings?: Settings['anthropic']) {
    this.client = new ClaudeToolClient(resolveAnthropicConfig(options, fromSettings));
  }

  get model(): string {
    return this.client.config.model;
  }

  usage(): UsageTotals {
    return this.client.usage();
  }

  calls(): readonly CallUsage[] {
    return this.client.calls();
  }

  async estimate(kind: 'scenario' | 'skill', name: string, given?: string): Promise<number> {
    const question =
      kind === 'scenario'
        ? `Estimate p(σ) for the scenario σ = ${JSON.stringify(name)}.`
        : `Estimate p(κ | σ) for the skill κ = ${JSON.stringify(name)} given the scenario σ = ${JSON.stringify(given ?? '(any scenario)')}.`;
    return this.client.call({
      tool: 'estimate_prior',
      system: this.system,
      user: `Role: prior estimator.\n${question}`,
      interpret: (answer) => ({ ok: true, value: answer.probability }),
    });
  }
}
