// The reference solution as one turn, so that even the oracle leaves a trajectory.
import type { Policy, PolicyEpisode } from '../types.ts';

export class OraclePolicy implements Policy {
  readonly name = 'oracle';
  readonly version = '1';
  readonly simulated = false;
  readonly usesSolution = true;

  async act(episode: PolicyEpisode): Promise<void> {
    episode.note({ message: 'Running the reference solution.' });
    await episode.terminal.run('bash /solution/solve.sh');
  }
}
