// Where a lengthened imported task gets the original task's outputs from: its oracle, run in the
// sandbox. Only files the oracle writes identically on two runs are offered, since a chained
// step's expected answer is computed from those bytes once and must hold for every run.
import { contentHash } from '../../env/index.ts';
import { bundleFile, type TaskBundle, parseTaskConfig } from '../../bundle/index.ts';
import type { Sandbox, TrialResult } from '../../sandbox/index.ts';
import { trialRequest } from '../../validate/index.ts';
import type { OracleArtifact } from './artifact-probe.ts';

export interface ArtifactSource {
  oracleArtifacts(bundle: TaskBundle): Promise<OracleArtifact[]>;
}

export class SandboxArtifactSource implements ArtifactSource {
  // Per process: every generation of a lineage chains onto the same seed files.
  private readonly cache = new Map<string, Promise<OracleArtifact[]>>();

  constructor(private readonly sandbox: Sandbox) {}

  oracleArtifacts(bundle: TaskBundle): Promise<OracleArtifact[]> {
    const key = contentHash(bundle);
    let artifacts = this.cache.get(key);
    if (!artifacts) {
      artifacts = this.run(bundle);
      this.cache.set(key, artifacts);
      artifacts.catch(() => this.cache.delete(key));
    }
    return artifacts;
  }

  private async run(bundle: TaskBundle): Promise<OracleArtifact[]> {
    const parsed = parseTaskConfig(bundleFile(bundle, 'task.toml')?.content.toString('utf8') ?? '');
    if (!parsed.ok) throw new Error(`cannot run the oracle of ${bundle.name}: task.toml: ${parsed.error}`);
    const build = await this.sandbox.buildEnvironmentImage(bundle, { timeoutSec: parsed.config.environment.build_timeout_sec });
    const request = {
      ...trialRequest(bundle, parsed.config, build.imageId, { kind: 'oracle' }, { 'envolve.purpose': 'oracle-artifacts' }),
      captureOutputs: {},
    };
    const [first, second] = await Promise.all([this.sandbox.runTrial(request), this.sandbox.runTrial(request)]);
    for (const trial of [first, second]) {
      if (trial.reward !== 1) {
        throw new Error(`the oracle of ${bundle.name} does not pass its own tests (${describeTrial(trial)}), so its outputs cannot be chained onto`);
      }
    }
    const again = new Map((second.outputs?.files ?? []).map((f) => [f.path, f.content]));
    return (first.outputs?.files ?? []).filter((f) => again.get(f.path)?.equals(f.content));
  }
}

function describeTrial(trial: TrialResult): string {
  return `status ${trial.status}, reward ${trial.reward ?? 'none'}${trial.error ? `: ${trial.error}` : ''}`;
}
