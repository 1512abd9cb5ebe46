// What the counter-check and near-miss validators run, and the shell that runs it: every solution
// to try (each ancestor's reference solution as it is, each near miss, then each ancestor's
// solution again after the data's wrappers and noise are undone) goes through ONE trial container
// on the candidate's already-built image. The agent phase runs the solutions one after another,
// each with its own time budget, and stashes what each wrote; the verifier phase restores each
// stash in turn, runs the candidate's own tests on it and packs every run's reward and CTRF into
// one result file. Only solution/ and tests/ of the trial bundle differ from the candidate's, and
// neither is part of the image, so the image build stays cached.
import { NEAR_MISS_DIR } from '../env/index.ts';
import { filesUnder, type BundleFile, type TaskBundle } from '../bundle/index.ts';

export type SolutionCheckKind = 'counter-check' | 'near-miss';
export type DataPass = 'as-is' | 'unwrapped';

// One earlier version's reference solution: its files under solution/ (paths relative to it).
export interface AncestorSolution {
  versionId: string;
  label: string; // how people know it, e.g. "generation 2" or "the seed"
  files: BundleFile[];
}

export interface SolutionCheckInput {
  // Nearest first: the parent, its parent, ..., the seed.
  ancestors: AncestorSolution[];
  // The ids of the steps the candidate changed or added; null: the task is judged as one step.
  changedSteps: string[] | null;
}

export interface CheckRun {
  id: string; // r1, r2, ...: file names in the container
  kind: SolutionCheckKind;
  label: string; // for people: "generation 2 (ab12cd34ef56), data as it is"
  script: string; // absolute path in the container
  pass: DataPass;
  ancestor?: { distance: number; versionId: string; label: string }; // distance 1 = the parent
  nearMiss?: { file: string; stepId: string; mistake: string };
}

export interface SolutionCheckPlan {
  runs: CheckRun[];
  unwrapBefore: string | null; // the id of the first run on unwrapped data
}

// Where the trial's scripts keep their state: the container's /tmp, which lasts from the agent
// phase to the verifier phase of the same container.
export const STASH_DIR = '/tmp/.envolve-solution-checks';
// The ancestors' solutions travel in the trial bundle's solution/ beside the candidate's own, so
// a near miss that calls /solution/solve.sh finds the candidate's reference solution there.
export const ANCESTOR_DIR = 'solution/.envolve-ancestors';
// The candidate's verifier, renamed beside the wrapper that runs it once per solution.
export const CHILD_TEST = 'tests/.envolve-child-test.sh';
// The output directory the procedural tasks (and Harbor tasks written to the same convention) use.
export const OUTPUT_DIR = '/app/out';
export const DATA_DIR = '/app/data';
// The verifier phase's result file: every run's reward and CTRF files, base64-encoded by run id.
export const RESULTS_KEY = 'envolveSolutionChecks';

const NEAR_MISS_NAME = /^([^./]+)\.([^/]+)\.sh$/;

export function nearMissFiles(bundle: TaskBundle): { file: string; stepId: string; mistake: string }[] {
  return filesUnder(bundle, NEAR_MISS_DIR)
    .map((f) => f.path.slice(NEAR_MISS_DIR.length + 1))
    .sort()
    .flatMap((file) => {
      const match = NEAR_MISS_NAME.exec(file);
      return match ? [{ file, stepId: match[1]!, mistake: match[2]! }] : [];
    });
}

export function planSolutionChecks(bundle: TaskBundle, input: SolutionCheckInput | null): SolutionCheckPlan {
  const runs: CheckRun[] = [];
  const add = (run: Omit<CheckRun, 'id'>) => runs.push({ id: `r${runs.length + 1}`, ...run });
  const ancestors = (input?.ancestors ?? []).filter((a) => a.files.some((f) => f.path === 'solve.sh'));
  const ancestorRun = (pass: DataPass) =>
    ancestors.forEach((a, i) =>
      add({
        kind: 'counter-check',
        label: `${a.label} (${a.versionId.slice(0, 12)}), data ${pass === 'as-is' ? 'as it is' : 'unwrapped'}`,
        script: `/${ANCESTOR_DIR}/${i + 1}/solve.sh`,
        pass,
        ancestor: { distance: i + 1, versionId: a.versionId, label: a.label },
      }),
    );
  ancestorRun('as-is');
  for (const nearMiss of nearMissFiles(bundle)) {
    add({ kind: 'near-miss', label: `near miss ${nearMiss.file}`, script: `/${NEAR_MISS_DIR}/${nearMiss.file}`, pass: 'as-is', nearMiss });
  }
  // Last: the unwrap pass changes /app/data in place for every run after it.
  const unwrapBefore = ancestors.length > 0 ? `r${runs.length + 1}` : null;
  ancestorRun('unwrapped');
  return { runs, unwrapBefore };
}

// The trial bundle: the candidate with the ancestors' solutions added and its tests wrapped.
export function trialBundle(bundle: TaskBundle, input: SolutionCheckInput | null, plan: SolutionCheckPlan, verifierSec: number): TaskBundle {
  const ancestors = (input?.ancestors ?? []).filter((a) => a.files.some((f) => f.path === 'solve.sh'));
  const ancestorFiles = ancestors.flatMap((a, i) => a.files.map((f) => ({ ...f, path: `${ANCESTOR_DIR}/${i + 1}/${f.path}` })));
  const files = bundle.files.flatMap((f) => (f.path === 'tests/test.sh' ? [{ ...f, path: CHILD_TEST }] : [f]));
  const wrapper: BundleFile = { path: 'tests/test.sh', content: Buffer.from(verifierWrapper(plan, verifierSec)), executable: true };
  return { name: bundle.name, files: [...files, ...ancestorFiles, wrapper].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

const quote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

// The files a run may have written: everything under the output directory and under the working
// directory (unless that is /), listed NUL-separated and sorted, the stash itself excluded.
const LIST_OUTPUTS = `list_outputs() {
  local roots=() r
  for r in ${OUTPUT_DIR} "$PWD"; do [[ $r != / && -d $r ]] && roots+=("$r"); done
  ((\${#roots[@]})) || return 0
  find "\${roots[@]}" -path ${STASH_DIR} -prune -o \\( -type f -o -type l \\) "$@" -print0 2>/dev/null | sort -zu
}`;

// Run as the image's user in the working directory. The output directory is emptied first; the
// solution runs under its own time budget; what it created or changed is packed into a tar, and
// the files it created are removed so the next run starts from what the image holds. (A file a
// run changes in place stays changed for later runs; the verifier restores each run's own copy.)
export function runCommand(run: CheckRun, budgetSec: number): string {
  const base = `${STASH_DIR}/${run.id}`;
  return `set -u
${LIST_OUTPUTS}
mkdir -p ${STASH_DIR} || exit 1
[[ -d ${OUTPUT_DIR} ]] && find ${OUTPUT_DIR} -mindepth 1 -delete
list_outputs > ${base}.before
touch ${base}.mark
printf 'envolve: running %s (%s, budget %ss)\\n' ${quote(run.script)} '${run.pass === 'as-is' ? 'data as it is' : 'data unwrapped'}' ${budgetSec}
timeout -k 5 ${budgetSec} bash ${quote(run.script)}
code=$?
((code == 124 || code == 137)) && echo "envolve: the solution ran out of its ${budgetSec}s budget"
list_outputs > ${base}.after
comm -z -13 ${base}.before ${base}.after > ${base}.created
{ cat ${base}.created; list_outputs -newer ${base}.mark; } | sort -zu > ${base}.changed
tar -c -P --null -T ${base}.changed -f ${base}.tar 2>&1 || echo "envolve: could not stash the outputs"
xargs -0 -r rm -f -- < ${base}.created
echo "envolve: exit $code"
exit 0`;
}

// Undoes, in place under /app/data, every delivery wrapper and noise the procedural catalogue
// adds (lib/synth/procedural delivery.ts and compose.ts), whatever made the bundle: gzip, base64
// (the suffix dropped), a tar.gz whose members overwrite nothing, then on every text file a
// leading UTF-8 BOM, CR line endings, the three-line export banner and `# note:` annotation
// lines. Each change is logged. Decoding repeats so a file wrapped twice is unwrapped twice.
export const unwrapScript = (dataDir: string): string => `set -u
d=${quote(dataDir)}
[[ -d $d ]] || { echo "envolve unwrap: no $d, nothing to undo"; exit 0; }
for round in 1 2 3; do
  n=0
  while IFS= read -r -d '' f; do
    case $f in
      *.tar.gz|*.tgz)
        dir=$(dirname -- "$f")
        members=$(tar -tzf "$f" 2>/dev/null) || continue
        if grep -qE '(^/|(^|/)\\.\\.(/|$))' <<<"$members"; then echo "envolve unwrap: kept $f (a member leaves its directory)"; continue; fi
        clash=0
        while IFS= read -r m; do [[ -n $m && ! $m == */ && -e $dir/$m ]] && clash=1; done <<<"$members"
        if ((clash)); then echo "envolve unwrap: kept $f (extracting it would overwrite a file)"; continue; fi
        tar -xzf "$f" -C "$dir" && rm -f -- "$f" && { echo "envolve unwrap: extracted $f"; n=$((n + 1)); } ;;
      *.gz)
        [[ -e \${f%.gz} ]] && { echo "envolve unwrap: kept $f (\${f%.gz} exists)"; continue; }
        gunzip -- "$f" && { echo "envolve unwrap: gunzip $f"; n=$((n + 1)); } ;;
      *.b64)
        [[ -e \${f%.b64} ]] && { echo "envolve unwrap: kept $f (\${f%.b64} exists)"; continue; }
        if base64 -d -- "$f" > "\${f%.b64}"; then rm -f -- "$f"; echo "envolve unwrap: base64 -d $f"; n=$((n + 1)); else rm -f -- "\${f%.b64}"; echo "envolve unwrap: $f is not base64"; fi ;;
    esac
  done < <(find "$d" -type f \\( -name '*.gz' -o -name '*.tgz' -o -name '*.b64' \\) -print0)
  ((n == 0)) && break
done
while IFS= read -r -d '' f; do
  grep -Iq . -- "$f" || continue
  if [[ $(head -c 3 -- "$f" | od -An -tx1 | tr -d ' \\n') == efbbbf ]]; then sed -i '1s/^\\xEF\\xBB\\xBF//' -- "$f" && echo "envolve unwrap: removed the byte-order mark of $f"; fi
  if grep -q $'\\r$' -- "$f"; then sed -i 's/\\r$//' -- "$f" && echo "envolve unwrap: CRLF to LF in $f"; fi
  if [[ $(sed -n 1p -- "$f") == 'Exported by envolve-export '* && $(sed -n 2p -- "$f") =~ ^Lines:\\ [0-9]+$ && $(sed -n 3p -- "$f") =~ ^-+$ ]]; then
    sed -i '1,3d' -- "$f" && echo "envolve unwrap: removed the banner of $f"
  fi
  if grep -q '^# note:' -- "$f"; then sed -i '/^# note:/d' -- "$f" && echo "envolve unwrap: removed the # note: lines of $f"; fi
done < <(find "$d" -type f -print0)
exit 0`;

// The trial's tests/test.sh, run as root in the working directory: for each run in turn, the
// files any run created are removed, this run's stash is restored, and the candidate's own test
// runs under its own budget; its reward and CTRF files are kept. At the end, /logs/verifier holds
// reward.json (how many runs were judged) and ctrf.json (every run's files, base64, by run id).
export function verifierWrapper(plan: SolutionCheckPlan, verifierSec: number): string {
  const ids = plan.runs.map((r) => r.id).join(' ');
  return `#!/bin/bash
# Envolve's counter-check and near-miss verifier: runs the task's own tests (${CHILD_TEST.slice('tests/'.length)})
# once per solution the agent phase ran, on that solution's outputs.
S=${STASH_DIR}
R=$S/results
rm -rf "$R"; mkdir -p "$R"
cat "$S"/*.created > "$S/all-created" 2>/dev/null
judged=0
for id in ${ids}; do
  echo "== envolve run $id =="
  mkdir -p "$R/$id"
  if [[ ! -f $S/$id.tar ]]; then echo "envolve: run $id left no stash"; continue; fi
  xargs -0 -r rm -f -- < "$S/all-created"
  [[ -d ${OUTPUT_DIR} ]] && find ${OUTPUT_DIR} -mindepth 1 -delete
  tar -x -P -f "$S/$id.tar" || echo "envolve: could not restore the outputs of $id"
  rm -rf /logs/verifier; mkdir -p /logs/verifier
  timeout -k 5 ${verifierSec} bash /${CHILD_TEST}
  echo $? > "$R/$id/exit"
  for f in reward.txt reward.json ctrf.json; do [[ -f /logs/verifier/$f ]] && cp /logs/verifier/$f "$R/$id/$f"; done
  judged=$((judged + 1))
done
rm -rf /logs/verifier; mkdir -p /logs/verifier
{
  printf '{"${RESULTS_KEY}":{'
  sep=
  for id in ${ids}; do
    printf '%s"%s":{' "$sep" "$id"; sep=,
    inner=
    for f in exit reward.txt reward.json ctrf.json; do
      [[ -f $R/$id/$f ]] || continue
      printf '%s"%s":"%s"' "$inner" "$f" "$(base64 -w0 < "$R/$id/$f")"; inner=,
    done
    printf '}'
  done
  printf '}}'
} > /logs/verifier/ctrf.json
printf '{"runs": %d, "judged": %d}\\n' ${plan.runs.length} "$judged" > /logs/verifier/reward.json
`;
}
