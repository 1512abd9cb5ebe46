// The offline stand-in for a model under training: a seeded agent that looks around the container
// first, then works through the environment's scenario–skill sequence step by step, running for
// each step the reference solution's fragment or, with the probability its competence profile
// leaves, a plausibly wrong variant of it; sometimes it checks its answer with a cat. Everything
// runs for real in the sandbox and the real verifier scores it; scores are labelled simulated.
// Same seed, same environment ⇒ same commands. The commands are the solution's without its
// comments: its step headers (`# s1: <skill> over <scenario>`) would hand an annotator the plan.
import { bundleFile } from '../../bundle/index.ts';
import { createRng, hashSeed, type Rng } from '../../synth/index.ts';
import { competenceFor, defaultCompetence, type CompetenceProfile } from '../competence.ts';
import { mutate } from '../mutations.ts';
import { stripShellComments } from '../shell-comments.ts';
import { outputPathOf, parseSolveScript, planSteps } from '../solve-script.ts';
import type { Policy, PolicyEpisode } from '../types.ts';

export interface SimulatedPolicyOptions {
  competence?: CompetenceProfile;
}

const FILES_TO_PEEK = 2;
const VERIFY_PROBABILITY = 0.5;
const LISTING = "find . -maxdepth 4 -type f -not -path '*/.git/*' 2>/dev/null | sort | head -n 50";

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export class SimulatedPolicy implements Policy {
  readonly name = 'simulated';
  readonly version = '4'; // 3: competence drawn from a seed, independent of the reference priors; 4: commands without comments
  readonly simulated = true;
  // A lengthened imported task's solution runs the original one from /solution.
  readonly usesSolution = true;
  readonly competence: CompetenceProfile;

  constructor(options: SimulatedPolicyOptions = {}) {
    this.competence = options.competence ?? defaultCompetence();
  }

  async act(episode: PolicyEpisode): Promise<void> {
    const solve = bundleFile(episode.task, 'solution/solve.sh');
    if (!solve) throw new Error(`task ${episode.task.name} has no solution/solve.sh for the simulated policy to draw on`);
    const steps = planSteps(parseSolveScript(solve.content.toString('utf8')), episode.sequence);
    const rng = createRng(hashSeed('envolve-simulated', episode.seed));
    const { terminal } = episode;

    await this.explore(episode, rng);
    for (const step of steps) {
      if (episode.signal.aborted) return;
      const competent = rng.next() < competenceFor(this.competence, step.skill);
      const attempt = competent ? { command: step.command, mutation: undefined } : this.mistake(step, rng);
      episode.note({
        message: step.skill === 'task' ? 'Solving the task.' : `Step ${step.id}: ${step.skill} over ${step.scenario}.`,
        reasoning: competent ? 'simulated: the reference fragment' : `simulated mistake: ${attempt.mutation}`,
      });
      await terminal.run(stripShellComments(attempt.command));
      const out = outputPathOf(step.body);
      if (out && rng.next() < VERIFY_PROBABILITY) {
        episode.note({ message: `Checking the answer of ${step.id}.` });
        await terminal.run(`cat ${shellQuote(out)}`);
      }
    }
    episode.note({ message: 'Done.' });
  }

  private mistake(step: ReturnType<typeof planSteps>[number], rng: Rng): { command: string; mutation: string } {
    const wrong = mutate(step.body, (n) => rng.int(0, n - 1));
    return { command: step.command.slice(0, step.command.length - step.body.length) + wrong.body, mutation: wrong.mutation };
  }

  private async explore(episode: PolicyEpisode, rng: Rng): Promise<void> {
    episode.note({ message: 'Looking around the working directory first.' });
    // -A, not -a: '..' would show the mtime of /, which the harness touches at container start.
    await episode.terminal.run('pwd && ls -lA');
    const listing = await episode.terminal.run(LISTING);
    const files = listing.output
      .split('\n')
      .filter((l) => l.startsWith('./') && !l.includes("'"))
      .slice(0, 50);
    for (const file of rng.shuffle(files).slice(0, FILES_TO_PEEK).sort()) {
      await episode.terminal.run(`wc -c ${shellQuote(file)} && head -n 5 ${shellQuote(file)}`);
    }
  }
}
