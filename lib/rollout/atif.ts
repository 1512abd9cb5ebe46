// A stored rollout as an ATIF-v1.4 document and back. Columns hold what Envolve queries (command,
// output, exit code, tokens, reward…); whatever else a document carries is kept as "leftovers"
// (Rollout.atif for root fields, TrajectoryStep.extra / toolCalls for step fields) and merged back
// on export, so export → import → export gives the same document.
import type { Db, Rollout, TrajectoryStep } from '../db/index.ts';
import { refreshSuspicion } from '../trajectories/index.ts';
import { ATIF_VERSION, atifSchema, envolveExtraSchema, formatIssues, type AtifDocument, type AtifStep } from './atif-schema.ts';
import { InvalidInputError } from '../errors/index.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function mergeDeep(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    out[key] = isObject(value) && isObject(out[key]) ? mergeDeep(out[key] as Json, value) : value;
  }
  return out;
}

function without(obj: Json | undefined, keys: readonly string[]): Json | undefined {
  if (!obj) return undefined;
  const rest = Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.includes(k)));
  return Object.keys(rest).length ? rest : undefined;
}

const parseJson = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));
const callId = (stepId: number) => `call_${stepId}`;

function exportStep(step: TrajectoryStep): AtifStep {
  const leftover = (parseJson(step.extra) as Json | undefined) ?? {};
  const out: Json = { step_id: step.stepId };
  if (step.timestamp) out.timestamp = step.timestamp.toISOString();
  out.source = step.source;
  out.message = step.message;
  if (step.reasoning !== null) out.reasoning_content = step.reasoning;
  if (step.toolCalls !== null) {
    Object.assign(out, parseJson(step.toolCalls) as Json);
  } else if (step.command !== null) {
    out.tool_calls = [{ tool_call_id: callId(step.stepId), function_name: 'bash', arguments: { command: step.command } }];
    if (step.output !== null) out.observation = { results: [{ source_call_id: callId(step.stepId), content: step.output }] };
  }
  const metrics: Json = {};
  if (step.promptTokens !== null) metrics.prompt_tokens = step.promptTokens;
  if (step.completionTokens !== null) metrics.completion_tokens = step.completionTokens;
  if (step.cachedTokens !== null) metrics.cached_tokens = step.cachedTokens;
  if (Object.keys(metrics).length) out.metrics = metrics;
  if (step.command !== null) out.extra = { exit_code: step.exitCode, duration_ms: step.durationMs, timed_out: step.timedOut };
  return mergeDeep(out, leftover) as AtifStep;
}

const ENVOLVE_COLUMNS = [
  'environment_version',
  'image_id',
  'policy',
  'policy_version',
  'simulated',
  'seed',
  'attempt',
  'group_id',
  'generation_id',
  'lineage_id',
  'status',
  'reward',
  'passed',
  'timed_out',
  'turns',
  'duration_ms',
  'agent_duration_ms',
  'verifier_duration_ms',
  'verifier_output',
  'verifier_exit_code',
  'reward_detail',
  'ctrf',
  'changed_files',
  'touched_protected',
  'error',
  'created_at',
  'finished_at',
] as const;

function envolveFields(r: Rollout): Json {
  return {
    environment_version: r.versionId,
    image_id: r.imageId,
    policy: r.policy,
    policy_version: r.policyVersion,
    simulated: r.simulated,
    seed: r.seed,
    attempt: r.attempt,
    ...(r.groupId ? { group_id: r.groupId } : {}),
    ...(r.generationId ? { generation_id: r.generationId } : {}),
    ...(r.lineageId ? { lineage_id: r.lineageId } : {}),
    status: r.status,
    reward: r.reward,
    passed: r.passed,
    timed_out: r.timedOut,
    turns: r.turns,
    duration_ms: r.durationMs,
    agent_duration_ms: r.agentDurationMs,
    verifier_duration_ms: r.verifierDurationMs,
    verifier_output: r.verifierLog,
    verifier_exit_code: r.verifierExitCode,
    reward_detail: parseJson(r.rewardDetail) ?? null,
    ...(r.ctrf !== null ? { ctrf: parseJson(r.ctrf) } : {}),
    changed_files: parseJson(r.changedFiles),
    touched_protected: r.touchedProtected,
    error: r.error,
    created_at: r.createdAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
  };
}

export async function exportAtif(db: Db, rolloutId: string): Promise<AtifDocument> {
  const rollout = await db.rollout.findUnique({ where: { id: rolloutId }, include: { steps: { orderBy: { stepId: 'asc' } } } });
  if (!rollout) throw new Error(`rollout ${rolloutId} not found`);
  const leftover = (parseJson(rollout.atif) as Json | undefined) ?? {};
  const finalMetrics: Json = {};
  if (rollout.promptTokens !== null) finalMetrics.total_prompt_tokens = rollout.promptTokens;
  if (rollout.completionTokens !== null) finalMetrics.total_completion_tokens = rollout.completionTokens;
  if (rollout.cachedTokens !== null) finalMetrics.total_cached_tokens = rollout.cachedTokens;
  finalMetrics.total_steps = rollout.steps.length;
  const doc: Json = {
    schema_version: ATIF_VERSION,
    session_id: rollout.id,
    agent: { name: rollout.policy, version: rollout.policyVersion, ...(rollout.model ? { model_name: rollout.model } : {}) },
    steps: rollout.steps.map(exportStep),
    final_metrics: finalMetrics,
    extra: { envolve: envolveFields(rollout) },
  };
  return mergeDeep(doc, leftover) as AtifDocument;
}

export class AtifImportError extends InvalidInputError {
  constructor(message: string) {
    super(message, { code: 'invalid_atif' });
  }
}

export interface ImportedTrajectory {
  id: string;
  warnings: string[];
}

// One bash call with its observation, in the shape Envolve exports: kept in columns.
function canonicalCall(step: AtifStep): { command: string; output: string | null } | null {
  const calls = step.tool_calls;
  if (!calls || calls.length !== 1) return null;
  const [call] = calls;
  const keys = Object.keys(call!).sort().join();
  const argKeys = Object.keys(call!.arguments).join();
  if (keys !== 'arguments,function_name,tool_call_id' || call!.function_name !== 'bash' || call!.tool_call_id !== callId(step.step_id)) return null;
  if (argKeys !== 'command' || typeof call!.arguments.command !== 'string') return null;
  if (step.observation === undefined) return { command: call!.arguments.command, output: null };
  const results = step.observation.results;
  if (Object.keys(step.observation).join() !== 'results' || results.length !== 1) return null;
  const [result] = results;
  if (Object.keys(result!).sort().join() !== 'content,source_call_id' || result!.source_call_id !== callId(step.step_id) || typeof result!.content !== 'string')
    return null;
  return { command: call!.arguments.command, output: result!.content };
}

function stepData(rolloutId: string, step: AtifStep) {
  const call = canonicalCall(step);
  const leftover: Json =
    without(step as Json, ['step_id', 'timestamp', 'source', 'message', 'reasoning_content', 'tool_calls', 'observation', 'metrics', 'extra']) ?? {};
  let timestamp: Date | null = null;
  if (step.timestamp !== undefined) {
    const parsed = new Date(step.timestamp);
    if (!Number.isNaN(parsed.getTime()) && parsed.toISOString() === step.timestamp) timestamp = parsed;
    else leftover.timestamp = step.timestamp; // kept as written
  }
  const metricsRest = without(step.metrics, ['prompt_tokens', 'completion_tokens', 'cached_tokens']);
  if (metricsRest) leftover.metrics = metricsRest;
  const extra = step.extra ?? {};
  const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);
  let exitCode: number | null = null;
  let durationMs: number | null = null;
  let timedOut = false;
  if (call) {
    exitCode = num(extra.exit_code);
    durationMs = num(extra.duration_ms);
    timedOut = extra.timed_out === true;
    const rest = without(extra, ['exit_code', 'duration_ms', 'timed_out']);
    if (rest) leftover.extra = rest;
  } else if (step.extra) {
    leftover.extra = step.extra;
  }
  const rawCalls =
    !call && (step.tool_calls !== undefined || step.observation !== undefined)
      ? JSON.stringify({ ...(step.tool_calls ? { tool_calls: step.tool_calls } : {}), ...(step.observation ? { observation: step.observation } : {}) })
      : null;
  const firstBash = step.tool_calls?.find((c) => c.function_name === 'bash' && typeof c.arguments.command === 'string');
  const firstOutput = step.observation?.results[0]?.content;
  return {
    rolloutId,
    stepId: step.step_id,
    source: step.source,
    message: step.message,
    reasoning: step.reasoning_content ?? null,
    command: call?.command ?? (firstBash ? String(firstBash.arguments.command) : null),
    output: call ? call.output : typeof firstOutput === 'string' ? firstOutput : null,
    exitCode,
    durationMs,
    timedOut,
    promptTokens: step.metrics?.prompt_tokens ?? null,
    completionTokens: step.metrics?.completion_tokens ?? null,
    cachedTokens: step.metrics?.cached_tokens ?? null,
    toolCalls: rawCalls,
    extra: Object.keys(leftover).length ? JSON.stringify(leftover) : null,
    timestamp,
  };
}

export async function importAtif(db: Db, json: unknown): Promise<ImportedTrajectory> {
  const parsed = atifSchema.safeParse(json);
  if (!parsed.success) throw new AtifImportError(`not a valid ATIF trajectory: ${formatIssues(parsed.error)}`);
  const doc = parsed.data;
  const envolve = envolveExtraSchema.safeParse(doc.extra?.envolve);
  if (!envolve.success) {
    throw new AtifImportError(
      `the trajectory lacks Envolve's fields (Envolve stores a trajectory against an environment version): ${formatIssues(envolve.error, ['extra', 'envolve'])}`,
    );
  }
  const e = envolve.data;
  const warnings: string[] = [];
  if (!(await db.environmentVersion.findUnique({ where: { id: e.environment_version }, select: { id: true } }))) {
    throw new AtifImportError(
      `extra.envolve.environment_version: environment version ${e.environment_version} is not in this database (import the environment first)`,
    );
  }
  let groupId = e.group_id ?? null;
  if (groupId && !(await db.probeGroup.findUnique({ where: { id: groupId }, select: { id: true } }))) {
    warnings.push(`probe group ${groupId} is not in this database; the trajectory is stored without a group`);
    groupId = null;
  }
  if (groupId && (await db.rollout.findUnique({ where: { groupId_attempt: { groupId, attempt: e.attempt } }, select: { id: true } }))) {
    throw new AtifImportError(`extra.envolve.attempt: group ${groupId} already has a rollout with attempt ${e.attempt}`);
  }
  const idTaken = await db.rollout.findUnique({ where: { id: doc.session_id }, select: { id: true } });
  if (idTaken) warnings.push(`a rollout with id ${doc.session_id} exists; stored under a new id`);

  const rootLeftover: Json = {};
  const agentRest = without(doc.agent, ['name', 'version', 'model_name']);
  if (agentRest) rootLeftover.agent = agentRest;
  for (const [key, value] of Object.entries(without(doc as Json, ['schema_version', 'session_id', 'agent', 'steps', 'final_metrics', 'extra']) ?? {}))
    rootLeftover[key] = value;
  const metricsRest = without(doc.final_metrics, ['total_prompt_tokens', 'total_completion_tokens', 'total_cached_tokens', 'total_steps']);
  if (metricsRest) rootLeftover.final_metrics = metricsRest;
  const extraRest = without(doc.extra, ['envolve']) ?? {};
  const envolveRest = without(doc.extra?.envolve as Json, ENVOLVE_COLUMNS);
  if (envolveRest) extraRest.envolve = envolveRest;
  if (Object.keys(extraRest).length) rootLeftover.extra = extraRest;

  const commandSteps = doc.steps.filter((s) => s.tool_calls?.length).length;
  const created = await db.$transaction(async (tx) => {
    const row = await tx.rollout.create({
      data: {
        ...(idTaken ? {} : { id: doc.session_id }),
        versionId: e.environment_version,
        groupId,
        attempt: e.attempt,
        generationId: e.generation_id ?? null,
        lineageId: e.lineage_id ?? null,
        imageId: e.image_id ?? null,
        policy: e.policy ?? doc.agent.name,
        policyVersion: e.policy_version ?? doc.agent.version,
        model: doc.agent.model_name ?? null,
        simulated: e.simulated,
        seed: e.seed,
        status: e.status,
        reward: e.reward ?? null,
        passed: e.passed ?? null,
        timedOut: e.timed_out,
        turns: e.turns ?? commandSteps,
        durationMs: e.duration_ms,
        agentDurationMs: e.agent_duration_ms,
        verifierDurationMs: e.verifier_duration_ms,
        promptTokens: doc.final_metrics?.total_prompt_tokens ?? null,
        completionTokens: doc.final_metrics?.total_completion_tokens ?? null,
        cachedTokens: doc.final_metrics?.total_cached_tokens ?? null,
        rewardDetail: e.reward_detail ? JSON.stringify(e.reward_detail) : null,
        verifierLog: e.verifier_output,
        verifierExitCode: e.verifier_exit_code ?? null,
        ctrf: e.ctrf === undefined ? null : JSON.stringify(e.ctrf),
        changedFiles: JSON.stringify(e.changed_files),
        touchedProtected: e.touched_protected,
        error: e.error ?? null,
        atif: JSON.stringify(rootLeftover),
        ...(e.created_at ? { createdAt: new Date(e.created_at) } : {}),
        finishedAt: e.finished_at ? new Date(e.finished_at) : null,
      },
    });
    await tx.trajectoryStep.createMany({ data: doc.steps.map((s) => stepData(row.id, s)) });
    return row;
  });
  await refreshSuspicion(db, [created.versionId]);
  return { id: created.id, warnings };
}
