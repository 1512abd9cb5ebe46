// Every policy by name, behind one constructor: the CLI, the scheduler and the workers pick one
// from configuration. LLM policies read their endpoint, model and key from the settings.
import { loadCompetenceProfile, parseCompetenceProfile } from '../competence.ts';
import { settings, type Settings } from '../../config/index.ts';
import type { Policy } from '../types.ts';
import { AnthropicPolicy } from './anthropic.ts';
import { NopPolicy } from './nop.ts';
import { OpenAiCompatiblePolicy } from './openai.ts';
import { OraclePolicy } from './oracle.ts';
import { SimulatedPolicy } from './simulated.ts';

import { POLICY_NAMES, type PolicyName } from '../../gate/index.ts';

export { POLICY_NAMES, type PolicyName };

export type PolicySpec =
  | { name: 'oracle' }
  | { name: 'nop' }
  // competence: a profile object, or the path of a JSON file holding one
  | { name: 'simulated'; competence?: unknown }
  | ({ name: 'anthropic' } & ConstructorParameters<typeof AnthropicPolicy>[0])
  | ({ name: 'openai' } & ConstructorParameters<typeof OpenAiCompatiblePolicy>[0]);

export function parsePolicyName(name: string): PolicyName {
  if (!(POLICY_NAMES as readonly string[]).includes(name)) throw new Error(`unknown policy '${name}' (choose one of ${POLICY_NAMES.join(', ')})`);
  return name as PolicyName;
}

// `fromSettings`: this process's settings by default; tests pass settingsFrom({ … }).
export function createPolicy(spec: PolicySpec, fromSettings: Settings = settings()): Policy {
  const name = parsePolicyName(spec.name);
  switch (name) {
    case 'oracle':
      return new OraclePolicy();
    case 'nop':
      return new NopPolicy();
    case 'simulated': {
      const competence = (spec as { competence?: unknown }).competence;
      if (competence === undefined) return new SimulatedPolicy();
      return new SimulatedPolicy({
        competence: typeof competence === 'string' ? loadCompetenceProfile(competence) : parseCompetenceProfile(competence),
      });
    }
    case 'anthropic': {
      const { name: _, ...options } = spec as Extract<PolicySpec, { name: 'anthropic' }>;
      return new AnthropicPolicy(options, fromSettings.anthropic);
    }
    case 'openai': {
      const { name: _, ...options } = spec as Extract<PolicySpec, { name: 'openai' }>;
      return new OpenAiCompatiblePolicy(options, fromSettings.openai);
    }
  }
}
