// Re-scoring a set with the current verifier: for each trajectory, a fresh container of its
// environment version's image gets the files the agent produced (the artifacts, written back
// at their paths by a script agent), then the current tests/ run as the verifier and the reward
// is read. The trajectory's commands are not replayed: the verifier grades artifacts, so the
// artifacts are what it must see again.
import path from 'node:path/posix';
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { loadBundle } from '../env/index.ts';
import { bundleFile, type TaskBundle, parseTaskConfig, type TaskConfig } from '../bundle/index.ts';
import { versionSandbox } from '../evolution/index.ts';
import type { Sandbox, BaseImageMapping } from '../sandbox/index.ts';
import { trialRequest } from '../validate/index.ts';
import { CalibrationConflictError } from './errors.ts';
import { parseChangedFiles } from './trajectory-view.ts';
import { calibrationVerifierStatus, currentVerifierSources, setVersionIds } from './verifier-version.ts';

export const CALIBRATION_RESCORE_JOB = 'calibration.rescore';
export const rescoreJobPayload = z.object({ setId: z.string().min(1), force: z.boolean().default(false) });

/** bash -c takes one argument of at most 128 KiB; stay well below it. */
export const MAX_REPLAY_SCRIPT_BYTES = 100 * 1024;

export interface RescoreOptions {
  db: Db;
  sandbox: Sandbox;
  setId: string;
  /** Re-run even when the verifier has not changed (a determinism check of the verifier). */
  force?: boolean;
  baseImages?: BaseImageMapping; // which local image stands in for a FROM this machine lacks
  labels?: Record<string, string>;
  progress?: (message: string) => void;
}

export interface RescoreResult {
  setId: string;
  verifierVersion: string;
  rescored: number;
  skipped: number; // already re-scored under this verifier
  errors: number;
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** A bash script that writes each file at its path (relative paths are under the working directory). */
export function replayScript(files: readonly { path: string; content: Buffer }[]): string {
  const lines = ['set -e'];
  for (const f of files) {
    lines.push(`mkdir -p ${quote(path.dirname(f.path))}`);
    lines.push(`printf '%s' ${quote(f.content.toString('base64'))} | base64 -d > ${quote(f.path)}`);
  }
  const script = `${lines.join('\n')}\n`;
  if (Buffer.byteLength(script) > MAX_REPLAY_SCRIPT_BYTES) {
    throw new Error(`the trajectory's artifacts are too large to replay (${Buffer.byteLength(script)} bytes of script, limit ${MAX_REPLAY_SCRIPT_BYTES})`);
  }
  return script;
}

/** The version's bundle with its tests/ replaced by those of the current verifier. */
export function withTests(bundle: TaskBundle, testsFrom: TaskBundle): TaskBundle {
  const tests = testsFrom.files.filter((f) => f.path.startsWith('tests/'));
  const files = [...bundle.files.filter((f) => !f.path.startsWith('tests/')), ...tests].sort((a, b) => (a.path < b.path ? -1 : 1));
  return { name: bundle.name, files };
}

export async function rescoreSet(options: RescoreOptions): Promise<RescoreResult> {
  const { db, setId } = options;
  const progress = options.progress ?? (() => {});
  const status = await calibrationVerifierStatus(db, setId);
  if (!status.stale && !options.force) {
    throw new CalibrationConflictError('the verifier has not changed since the set was created; nothing to re-score (force re-runs it anyway)');
  }
  const versionIds = await setVersionIds(db, setId);
  const sources = await currentVerifierSources(db, versionIds);
  const items = await db.calibrationItem.findMany({
    where: { setId },
    orderBy: { position: 'asc' },
    select: { id: true, position: true, rolloutId: true, rescores: { where: { verifierVersion: status.current }, select: { id: true } } },
  });
  const rollouts = await db.rollout.findMany({
    where: { id: { in: items.map((i) => i.rolloutId) } },
    select: { id: true, versionId: true, changedFiles: true, group: { select: { passThreshold: true } } },
  });
  const result: RescoreResult = { setId, verifierVersion: status.current, rescored: 0, skipped: 0, errors: 0 };

  for (const versionId of versionIds) {
    const todo = items.filter((i) => i.rescores.length === 0 && rollouts.find((r) => r.id === i.rolloutId)?.versionId === versionId);
    result.skipped += items.filter((i) => i.rescores.length > 0 && rollouts.find((r) => r.id === i.rolloutId)?.versionId === versionId).length;
    if (todo.length === 0) continue;
    const record = (itemId: string, outcome: { reward: number | null; passed: boolean | null; error: string | null }) =>
      db.calibrationRescore.create({ data: { itemId, verifierVersion: status.current, ...outcome } });
    let prepared: { bundle: TaskBundle; imageId: string; config: TaskConfig };
    // Built and re-scored under the lineage the version belongs to (its base images and runtime).
    const sandbox = await versionSandbox(db, options.sandbox, versionId);
    try {
      const bundle = withTests(await loadBundle(db, versionId), await loadBundle(db, sources.get(versionId)!));
      const parsed = parseTaskConfig(bundleFile(bundle, 'task.toml')?.content.toString('utf8') ?? '');
      if (!parsed.ok) throw new Error(`task.toml: ${parsed.error}`);
      progress(`building the image of ${bundle.name} (${versionId.slice(0, 12)})`);
      const build = await sandbox.buildEnvironmentImage(bundle, { baseImages: options.baseImages, timeoutSec: parsed.config.environment.build_timeout_sec });
      prepared = { bundle, imageId: build.imageId, config: parsed.config };
    } catch (err) {
      for (const item of todo) await record(item.id, { reward: null, passed: null, error: (err as Error).message });
      result.errors += todo.length;
      continue;
    }
    for (const item of todo) {
      const rollout = rollouts.find((r) => r.id === item.rolloutId)!;
      try {
        const files = parseChangedFiles(rollout.changedFiles);
        const blobs = await db.blob.findMany({ where: { hash: { in: files.map((f) => f.blobHash) } }, select: { hash: true, content: true } });
        const script = replayScript(
          files.map((f) => {
            const blob = blobs.find((b) => b.hash === f.blobHash);
            if (!blob) throw new Error(`artifact ${f.path} has no stored content (blob ${f.blobHash})`);
            return { path: f.path, content: Buffer.from(blob.content) };
          }),
        );
        const labels = { ...options.labels, 'envolve.calibration-set': setId, 'envolve.version': versionId };
        const trial = await sandbox.runTrial(trialRequest(prepared.bundle, prepared.config, prepared.imageId, { kind: 'script', script }, labels));
        if (trial.status !== 'completed' || trial.reward === null) {
          throw new Error(`re-score trial ended ${trial.status}${trial.error ? `: ${trial.error}` : ''}`);
        }
        const passed = trial.reward >= (rollout.group?.passThreshold ?? 1);
        await record(item.id, { reward: trial.reward, passed, error: null });
        result.rescored += 1;
        progress(`item ${item.position}: reward ${trial.reward} (${passed ? 'pass' : 'fail'})`);
      } catch (err) {
        await record(item.id, { reward: null, passed: null, error: (err as Error).message });
        result.errors += 1;
        progress(`item ${item.position}: ${(err as Error).message}`);
      }
    }
  }
  return result;
}
