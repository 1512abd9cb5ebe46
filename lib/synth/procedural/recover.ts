// The sequence a procedural bundle was built from, recovered from what was built rather than from
// the sequence its task.toml claims: the solution's step fragments say which steps
// exist, what each reads (its `d=` line) and how (its extract and skill code), and the data files
// must be exactly what those names render. Only the seed (and the steps' construction variants)
// are read from task.toml; a claim the
// files do not hold recovers as the names the files do hold, or fails.
import { bundleFile, type TaskBundle } from '../../bundle/index.ts';
import type { Sequence, Step } from '../../sequence/index.ts';
import { misfit, SCENARIO_NAMES, scenarioNamed, skillNamed, SKILL_NAMES } from './catalogue.ts';
import { readGeneratorInputs } from './metadata.ts';
import { renderEnvironment } from './render.ts';
import { renderStep, solveBody } from './render-step.ts';
import { RefusedError } from '../../errors/index.ts';

export class BuiltFilesMismatch extends RefusedError {
  constructor(message: string) {
    super(`the built files do not hold a catalogue sequence: ${message}`, { code: 'built_files_mismatch' });
  }
}

interface Fragment {
  id: string;
  dependsOn: string[];
  extract: string;
  body: string; // from the out= line on
}

let byExtract: Map<string, string[]> | undefined;
// Scenarios by their extract pipeline (a few share one: CSV layouts of different domains).
function scenariosWithExtract(extract: string): string[] {
  if (!byExtract) {
    byExtract = new Map();
    for (const name of SCENARIO_NAMES) {
      const key = scenarioNamed(name).extract;
      byExtract.set(key, [...(byExtract.get(key) ?? []), name]);
    }
  }
  return byExtract.get(extract) ?? [];
}

function fragmentsOf(solve: string): Fragment[] {
  const parts = solve.split(/^(?=d=)/m).slice(1);
  return parts.map((part, i) => {
    const lines = part
      .replace(/\n+# [^\n]*$/, '')
      .trimEnd()
      .split('\n');
    const out = /^out=\/app\/out\/([^/\s]+)\.txt$/.exec(lines[1] ?? '');
    const extract = /^extract\(\) \{ (.*); \}$/.exec(lines[2] ?? '');
    if (!out || !extract) throw new BuiltFilesMismatch(`fragment ${i + 1} of solution/solve.sh is not laid out as the synthesiser writes one`);
    // The select line names the answers a step picks its folder by; a step computing with an
    // earlier answer reads that answer's file in its body instead.
    const dependsOn = [...new Set([...lines.join('\n').matchAll(/\/app\/out\/([^/\s)]+)\.txt/g)].map((m) => m[1]!))].filter((id) => id !== out[1]);
    return { id: out[1]!, dependsOn, extract: extract[1]!, body: lines.slice(1).join('\n') };
  });
}

// Several names can write the same fragment (a skill that never reads the scenario's fields, a
// layout every domain shares): the one whose data files are the built ones is the step.
function stepOf(fragment: Fragment, seed: number, variant: number, answers: Map<string, string>, bundle: TaskBundle): Step {
  let written = 0;
  for (const scenario of scenariosWithExtract(fragment.extract)) {
    for (const skill of SKILL_NAMES) {
      if (misfit(scenario, skill) !== null) continue;
      if (skillNamed(skill).skill.computesWithUpstream && fragment.dependsOn.length !== 1) continue;
      const step = { id: fragment.id, scenario, skill, dependsOn: fragment.dependsOn };
      // Lines after the skill's own are the validators' business (an injected fault adds one).
      if (!fragment.body.startsWith(solveBody(step, seed, variant))) continue;
      written++;
      const rendered = renderStep(step, seed, answers, new Map(), variant);
      const same = rendered.datasets.every((d) =>
        d.files.every((f) => bundleFile(bundle, `environment/data/${d.dir}/${f.path}`)?.content.equals(Buffer.from(f.content, 'utf8'))),
      );
      if (same) {
        answers.set(step.id, rendered.answer);
        return step;
      }
    }
  }
  throw new BuiltFilesMismatch(
    written === 0
      ? `no catalogue scenario and skill write the solution fragment of step ${fragment.id}`
      : `the data files of step ${fragment.id} are not what any of the ${written} names writing its solution fragment render`,
  );
}

// What the steps are made of: the data (and Dockerfile) and the expected answers. Whether the
// solution and tests are right is the validators' question, not this one.
const checked = (path: string) => path.startsWith('environment/') || path === 'tests/expected.json';

/** Null when the bundle is not the procedural renderer's; throws BuiltFilesMismatch when its files are not a rendering. */
export function recoverSequence(bundle: TaskBundle): Sequence | null {
  const inputs = readGeneratorInputs(bundle);
  if (!inputs) return null;
  const { seed, variants } = inputs;
  const solve = bundleFile(bundle, 'solution/solve.sh')?.content.toString('utf8') ?? '';
  const fragments = fragmentsOf(solve);
  if (fragments.length === 0) throw new BuiltFilesMismatch('solution/solve.sh has no step fragments');
  const answers = new Map<string, string>();
  const sequence: Sequence = { steps: fragments.map((f) => stepOf(f, seed, variants[f.id] ?? 0, answers, bundle)) };
  // The names must render the very files that were built: the data and the expected answers.
  const rendered = renderEnvironment(sequence, { seed, name: bundle.name, variants });
  const builtFiles = bundle.files.filter((f) => checked(f.path));
  const renderedFiles = rendered.files.filter((f) => checked(f.path));
  const differing = [
    ...renderedFiles.filter((f) => !bundleFile(bundle, f.path)?.content.equals(f.content)).map((f) => f.path),
    ...builtFiles.filter((f) => !bundleFile(rendered, f.path)).map((f) => f.path),
  ];
  if (differing.length > 0) {
    throw new BuiltFilesMismatch(
      `${differing.length} file${differing.length === 1 ? '' : 's'} differ from what the recovered steps render (${differing.slice(0, 3).join(', ')})`,
    );
  }
  return sequence;
}
