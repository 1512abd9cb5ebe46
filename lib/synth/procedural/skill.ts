// A skill κ: the terminal technique a step exercises. Given a scenario's records it decides how
// the data is delivered (files, and a build script run at image-build time for archives, git
// repositories, databases or file modes), what the step asks, the shell fragment of the reference
// solution, and the expected answer, computed here in TypeScript from the records alone.
import { formatValue, type DataRecord } from './records.ts';
import type { Rng } from './rng.ts';
import type { Scenario } from './scenario.ts';

// The selectors a step's question uses, chosen once per step so every candidate dataset of a
// dependent step is asked the same question.
export interface StepParams {
  category: string;
  key: string;
  batch: number; // 2 or 3: which import batch a history question is about
  upstreamFile?: string; // the output file of the one step this step depends on, where it depends on exactly one
}

export interface DataFile {
  path: string; // relative to the dataset directory
  content: string;
}

export interface Materialised {
  files: DataFile[];
  build?: string; // bash run as root in the dataset directory while the image is built, then deleted
  answer: string; // the exact expected content of the output file, without the final newline
}

export interface SkillInput {
  scenario: Scenario;
  params: StepParams;
  rng: Rng;
  records: DataRecord[];
  // The integer the step this one depends on answers, for a skill that computes with it.
  upstream?: number;
}

export interface Skill {
  name: string;
  title: string;
  // True when the data is delivered as a column export (JSON, CSV, database) instead of the
  // scenario's native file, so the instruction describes columns rather than the native format.
  exportsColumns?: boolean;
  // True when the data is turned into something else at image-build time (a database, an archive,
  // a repository, file modes): noise or a delivery added to its text would not reach the agent.
  buildsData?: boolean;
  // True when the first word of every answer is a non-negative integer (a count, a number of
  // seconds, a sum of integers), in every domain: a later step can compute with it.
  answersInteger?: boolean;
  // True when the question takes a parameter from the answer of the one step it depends on (a
  // threshold, read at run time from StepParams.upstreamFile): the data is one directory, not a
  // folder per candidate answer, and the upstream step's skill must answer an integer.
  computesWithUpstream?: boolean;
  materialise(input: SkillInput): Materialised;
  // The question, in Markdown: names files as `DATA/…` (the renderer says where DATA is) and OUT.
  task(scenario: Scenario, params: StepParams): string;
  // Bash lines run with $d (the data directory), $out (the output file), an `extract` function
  // (the scenario's native file on stdin → TSV key, value, time, category, text), LC_ALL=C.
  solve(scenario: Scenario, params: StepParams): string;
  // The typical wrong solutions of this step, each a drop-in for solve(). materialise() makes data
  // on which every one of them computes a wrong answer (ties where ties matter, quoted commas where
  // a naive split is the mistake, mixed case where case matters): the near-miss validator proves
  // it in the sandbox.
  nearMisses?(scenario: Scenario, params: StepParams): NearMiss[];
}

export interface NearMiss {
  name: string; // kebab-case, the mistake: 'ties-wrong-way', 'naive-comma-split', 'first-rotated-file-only'
  why: string; // one sentence a reviewer reads: what the agent got wrong
  solve: string; // bash with the same contract as Skill.solve
}

export const show = (scenario: Scenario, units: number): string => formatValue(units, scenario.value.decimals);
export const printfValue = (scenario: Scenario): string => `%.${scenario.value.decimals}f`;
export const decimalsPhrase = (scenario: Scenario): string =>
  scenario.value.decimals === 0 ? 'as an integer' : `with exactly ${scenario.value.decimals} decimals`;
export const sum = (records: DataRecord[]): number => records.reduce((total, r) => total + r.value, 0);

// Splits records into `parts` consecutive, non-empty chunks (fewer when there are few records).
export function chunk<T>(items: T[], parts: number): T[][] {
  const size = Math.ceil(items.length / parts);
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

// Most frequent name; ties go to the smallest in byte order, as `sort | uniq -c | sort -k1,1nr -k2,2`.
export function topByCount(names: string[]): [string, number] {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return topOf(counts);
}

export function topOf(totals: Map<string, number>): [string, number] {
  const sorted = [...totals].sort((a, b) => b[1] - a[1] || Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0])));
  if (sorted.length === 0) throw new Error('no records to rank');
  return sorted[0]!;
}
