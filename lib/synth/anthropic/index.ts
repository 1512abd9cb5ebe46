export { AnthropicSynthesiser, type AnthropicSynthesiserOptions } from './synthesiser.ts';
export { AnthropicPriorEstimator } from './prior-estimator.ts';
export {
  AnthropicConfigError,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MODEL,
  resolveAnthropicConfig,
  type AnthropicConfig,
  type AnthropicOptions,
} from './config.ts';
export { AnthropicCallError, ToolInputError } from './tool-client.ts';
export { TOOLS, type ToolName } from './tools.ts';
export type { CallUsage, TokenCounts, UsageTotals } from './usage.ts';
export { checkAnthropic, type DoctorReport } from './doctor.ts';
