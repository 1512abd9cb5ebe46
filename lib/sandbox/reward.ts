// The verifier's reward contract (Harbor): /logs/verifier/reward.txt holds one
// number, or /logs/verifier/reward.json a flat map of numbers. Anything else
// is no reward at all — an error, never a silent 0.
export type ParsedReward = { ok: true; reward: number; detail?: Record<string, number> } | { ok: false; problem: string };

export function parseRewardTxt(text: string): ParsedReward {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'reward.txt is empty' };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { ok: false, problem: `reward.txt does not hold a number: ${JSON.stringify(trimmed.slice(0, 80))}` };
  return { ok: true, reward: value };
}

// The scalar of a reward map is its `reward` key when present, else the mean.
export function parseRewardJson(text: string): ParsedReward {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'reward.json is not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, problem: 'reward.json is not a JSON object' };
  }
  const entries = Object.entries(parsed);
  if (entries.length === 0) return { ok: false, problem: 'reward.json is an empty object' };
  const detail: Record<string, number> = {};
  for (const [key, value] of entries) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return { ok: false, problem: `reward.json key '${key}' is not a number` };
    }
    detail[key] = value;
  }
  const values = Object.values(detail);
  const reward = detail.reward ?? values.reduce((a, b) => a + b, 0) / values.length;
  return { ok: true, reward, detail };
}
