// A task's reference solution read as steps. Envolve's procedural synthesiser writes one fragment
// per step of the scenario–skill sequence, headed `# s1: <skill> over <scenario>`; what comes
// before the first fragment is the preamble. The preamble's shell settings (set, export, mkdir…)
// are what every fragment needs to run on its own; any other preamble line is work of its own
// (a lengthened imported task runs the original solution there), which belongs to the sequence
// step that has no fragment. A script without fragments (an imported third-party task) is one step.

export interface SolveFragment {
  id: string; // the sequence step id from the header
  skill?: string;
  scenario?: string;
  body: string; // the fragment's lines, header included
}

export interface SolveScript {
  setup: string; // preamble settings, run before every fragment
  preambleWork: string | null; // preamble lines that do work, or null
  fragments: SolveFragment[]; // in script order; empty when the script has none
  whole: string; // the script as written
}

const HEADER = /^# (\S+): (\S+) over (.+)$/;
const SETUP_LINE = /^(set|export|shopt|umask|ulimit|cd|mkdir|trap|source|\.)\s/;

export function parseSolveScript(text: string): SolveScript {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const firstHeader = lines.findIndex((l) => HEADER.test(l));
  if (firstHeader < 0) return { setup: '', preambleWork: null, fragments: [], whole: text };

  const setup: string[] = [];
  const work: string[] = [];
  for (const line of lines.slice(0, firstHeader)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    (SETUP_LINE.test(trimmed) ? setup : work).push(line);
  }

  const fragments: SolveFragment[] = [];
  for (const line of lines.slice(firstHeader)) {
    const header = HEADER.exec(line);
    if (header) fragments.push({ id: header[1]!, skill: header[2]!, scenario: header[3]!, body: line });
    else fragments[fragments.length - 1]!.body += `\n${line}`;
  }
  for (const f of fragments) f.body = f.body.replace(/\s+$/, '');
  return { setup: setup.join('\n'), preambleWork: work.length ? work.join('\n') : null, fragments, whole: text };
}

export interface PlannedStep {
  id: string;
  skill: string;
  scenario: string;
  command: string; // what a correct agent runs for the step
  body: string; // the part of the command that is the step's own work (what a mistake changes)
}

// The steps in the order of the environment's sequence (fragments the sequence does not name
// follow in script order). Without fragments the whole script is the sequence's first step.
export function planSteps(script: SolveScript, sequence?: { steps: Array<{ id: string; skill: string; scenario: string }> }): PlannedStep[] {
  const seqSteps = sequence?.steps ?? [];
  if (script.fragments.length === 0) {
    const first = seqSteps[0];
    const whole = script.whole.replace(/^#!.*\n/, '').trim();
    return [{ id: first?.id ?? 'task', skill: first?.skill ?? 'task', scenario: first?.scenario ?? 'task', command: whole, body: whole }];
  }
  const withSetup = (body: string) => (script.setup ? `${script.setup}\n${body}` : body);
  const byId = new Map(script.fragments.map((f) => [f.id, f]));
  const planned: PlannedStep[] = [];
  let preamble = script.preambleWork;
  const takePreamble = (id: string, skill: string, scenario: string) => {
    if (preamble === null) return;
    planned.push({ id, skill, scenario, command: withSetup(preamble), body: preamble });
    preamble = null;
  };
  for (const step of seqSteps) {
    const fragment = byId.get(step.id);
    if (!fragment) {
      takePreamble(step.id, step.skill, step.scenario);
      continue;
    }
    takePreamble('preamble', 'task', 'task');
    planned.push({ id: step.id, skill: step.skill, scenario: step.scenario, command: withSetup(fragment.body), body: fragment.body });
    byId.delete(step.id);
  }
  takePreamble('preamble', 'task', 'task');
  for (const fragment of script.fragments.filter((f) => byId.has(f.id))) {
    planned.push({
      id: fragment.id,
      skill: fragment.skill ?? 'task',
      scenario: fragment.scenario ?? 'task',
      command: withSetup(fragment.body),
      body: fragment.body,
    });
  }
  return planned;
}

// Where a fragment writes its answer (`out=/app/out/s1.txt`), for a verifying cat.
export function outputPathOf(body: string): string | undefined {
  return /^out=(\/[^\s;'"]+)$/m.exec(body)?.[1];
}
