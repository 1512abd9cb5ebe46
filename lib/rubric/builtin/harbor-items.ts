// Harbor's task quality criteria (ANCHORS.md), as Envolve rubric items. Harbor asks an
// LLM about each; where a criterion has a mechanical core, it also gets a check.
import type { RubricItemDef } from '../types.ts';
import { DOCKERFILE_INSTRUCTIONS } from './dockerfile-shell.ts';

function llmItem(key: string, title: string, description: string, question: string): RubricItemDef {
  return { key, title, description, check: null, question, appliesTo: 'environment' };
}

const behaviorInTaskDescription = llmItem(
  'behavior_in_task_description',
  'Everything the tests check is described in the instruction',
  'A test that checks behaviour the instruction never asks for fails agents that did what they were told.',
  'Read tests/ and instruction.md. Is every behaviour, output value, file, format and constraint that the tests ' +
    'check stated (or unambiguously implied) in instruction.md, so that an agent following the instruction ' +
    'exactly would pass?',
);

const behaviorInTests = llmItem(
  'behavior_in_tests',
  'Everything the instruction asks for is checked by the tests',
  'Requirements the tests never check are free to ignore: the reward then rewards less than the task asks.',
  'Read instruction.md and tests/. Is every requirement stated in instruction.md (outputs, their exact values or ' +
    'format, and any "do not modify" constraints) actually verified by the tests?',
);

const informativeTestStructure = llmItem(
  'informative_test_structure',
  'Test failures say which requirement failed',
  'Reviewers read failed trials; a verifier that only prints "0" makes every failure a puzzle.',
  'Are the tests in tests/ structured so that a failure names the requirement that was not met (separate named ' +
    'checks or a specific failure message per check), rather than a single opaque pass/fail?',
);

const antiCheatingMeasures = llmItem(
  'anti_cheating_measures',
  'The agent cannot pass without doing the task',
  'Reward hacking hides at the top of the score distribution: the verifier must grade artifacts the agent ' +
    'had to compute, and nothing the agent can read or write may stand in for the work.',
  'Consider an agent that tries to pass without solving the task: reading answers from files in the image, ' +
    'writing /logs/verifier/reward.txt itself, editing or deleting the input data, producing the right output ' +
    'shape with guessed values, or exploiting a lenient comparison. Do the tests and the environment prevent ' +
    'every such shortcut?',
);

const structuredDataSchema = llmItem(
  'structured_data_schema',
  'Structured outputs have an exact schema',
  'An agent cannot guess key names, types or ordering; a schema left vague turns the task into guesswork.',
  'If the task asks for structured output (JSON, CSV, YAML, a database table, ...), does instruction.md specify ' +
    'its exact schema: every key or column name, each value type, the ordering, and number formats? Answer yes ' +
    'if the task has no structured output.',
);

const typos = llmItem(
  'typos',
  'No typos in names, paths or commands',
  'A misspelt path or key in the instruction or tests makes a correct agent fail.',
  'Are instruction.md, tests/, solution/ and environment/ free of typos that matter: misspelt file names, paths, ' +
    'keys, commands or variable names, or names that differ between the instruction, the tests and the solution?',
);

const hardcodedSolution = llmItem(
  'hardcoded_solution',
  'The reference solution computes its answer',
  'An oracle that echoes the final answer passes whatever the data says, so its pass proves nothing about the task.',
  'Does solution/solve.sh derive its outputs by processing the task inputs the way an agent would have to ' +
    '(rather than writing precomputed final answers with echo, printf or a heredoc)? Answer yes when the task ' +
    'is to write a given file or configuration whose content is fully specified by the instruction.',
);

const fileReferenceMentioned = llmItem(
  'file_reference_mentioned',
  'Every file the tests read is named in the instruction',
  'Output files the agent must create (and inputs it must use) are only findable if the instruction names them.',
  'Does instruction.md name every file the tests read or expect the agent to create, with its path (absolute or ' + 'clearly relative to a stated directory)?',
);

const pinnedDependencies: RubricItemDef = {
  key: 'pinned_dependencies',
  title: 'Dependencies are pinned',
  description:
    'Unpinned images and packages change under a task between runs, so its rewards drift. Base images must carry ' +
    'a version tag or digest (not latest), and pip installs in the Dockerfile or scripts must pin with ==.',
  check: String.raw`python3 - <<'PY'
import pathlib, re, shlex, sys

def logical_lines(text):
    joined = re.sub(r'\\\r?\n', ' ', text)
    return [line for line in joined.splitlines() if not line.lstrip().startswith('#')]

problems = []
dockerfile = pathlib.Path('environment/Dockerfile')
run_lines = []
if dockerfile.is_file():
    stages = set()
    for line in logical_lines(dockerfile.read_text(errors='replace')):
        words = line.split()
        if not words:
            continue
        if words[0].upper() == 'RUN':
            run_lines.append(line)
        if words[0].upper() != 'FROM':
            continue
        args = [w for w in words[1:] if not w.startswith('--')]
        if not args:
            continue
        image = args[0]
        pinned = '@sha256:' in image or image == 'scratch' or '$' in image or image.lower() in stages
        name = image.rsplit('/', 1)[-1]
        tag = name.split(':', 1)[1] if ':' in name else ''
        if not pinned and tag in ('', 'latest'):
            problems.append(f'FROM {image}: no version tag or digest')
        if len(args) >= 3 and args[1].upper() == 'AS':
            stages.add(args[2].lower())

scripts = [p for d in ('tests', 'solution', 'environment') for p in pathlib.Path(d).rglob('*.sh') if p.is_file()]
sources = [('environment/Dockerfile', line) for line in run_lines]
sources += [(str(p), line) for p in scripts for line in logical_lines(p.read_text(errors='replace'))]

PIP = re.compile(r'(?:^|[\s;&|(])(?:pip3?|python3?\s+-m\s+pip|uv\s+pip)\s+install\s+([^;&|\n]*)')
TAKES_VALUE = {'-r', '--requirement', '-c', '--constraint', '-e', '--editable', '-i', '--index-url',
               '--extra-index-url', '-f', '--find-links', '-t', '--target', '--prefix', '--root', '--python',
               '-p', '--platform', '--python-version', '--trusted-host', '--cache-dir', '--src'}
for where, line in sources:
    for match in PIP.finditer(line):
        try:
            words = shlex.split(match.group(1))
        except ValueError:
            words = match.group(1).split()
        skip = False
        for word in words:
            if skip:
                skip = False
                continue
            if word in TAKES_VALUE:
                skip = True
                continue
            if word.startswith(('-', '.', '/')) or '/' in word or '$' in word or word.endswith(('.whl', '.tar.gz', '.zip')):
                continue
            if not re.search(r'===?|@', word):
                problems.append(f'{where}: pip installs {word} without an exact version (==)')

for problem in problems:
    print(problem)
if problems:
    sys.exit(1)
print('base images and pip installs are pinned')
PY
`,
  question:
    'Are all dependencies the task relies on pinned to exact versions: base images by version tag or digest ' +
    '(never latest), and every package installed in the Dockerfile or in the test and solution scripts?',
  appliesTo: 'environment',
};

const testsOrSolutionInImage: RubricItemDef = {
  key: 'tests_or_solution_in_image',
  title: 'Neither the tests nor the solution are in the build context',
  description:
    'environment/ is what the image is built from: a copy of solve.sh, of a solution file, or of a test script ' +
    'or expected answers there can end up where the agent can read it.',
  check: String.raw`[ -d environment ] || { echo "no environment/"; exit 0; }
# Reference files: everything in solution/, test scripts and expected answers; tiny files (under
# 32 bytes) match by chance. One sha256sum over each side and one join, whatever the file count.
refs=$(find solution tests -type f \( -path 'solution/*' -o -name '*.sh' -o -name '*.py' -o -name 'expected*' \) -size +31c -print0 2>/dev/null | xargs -0 -r sha256sum)
named=$(find environment -type f -name solve.sh)
copies=$(find environment -type f -size +31c -not -name solve.sh -print0 | xargs -0 -r sha256sum |
  awk 'FILENAME == ARGV[1] { if (!($1 in ref)) ref[$1] = substr($0, 67); next } ($1 in ref) { print substr($0, 67) " is a copy of " ref[$1] }' <(printf '%s\n' "$refs" | sed '/^$/d') -)
bad=0
if [ -n "$named" ]; then
  printf '%s\n' "$named" | while IFS= read -r file; do echo "$file: the reference solution's name in the build context"; done
  bad=1
fi
[ -n "$copies" ] && { printf '%s\n' "$copies"; bad=1; }
[ "$bad" -eq 0 ] && echo "no file in environment/ is a copy of a solution file, a test script or expected answers"
exit "$bad"
`,
  question:
    'Is the Docker image free of the tests, the reference solution and anything that reveals the expected ' +
    'answers (look at environment/Dockerfile and the files it copies)?',
  appliesTo: 'environment',
};

const testDepsInImage: RubricItemDef = {
  key: 'test_deps_in_image',
  title: 'Test-only dependencies are not installed in the image',
  description:
    'Test frameworks belong to the verifier, not to the agent: installed in the image they hint at the grader ' +
    'and let the agent run it. (The base image carries python3-pytest for verifiers; tasks must not add more.)',
  check:
    DOCKERFILE_INSTRUCTIONS +
    String.raw`[ -f environment/Dockerfile ] || { echo "no environment/Dockerfile"; exit 0; }
hits=$(dockerfile_instructions RUN | grep -iE '(install|add)' |
  grep -iE '(^|[^A-Za-z0-9_-])(pytest[A-Za-z0-9_-]*|python3-pytest|hypothesis|jest|mocha|vitest|rspec|bats|nose2?|tox)([^A-Za-z0-9_-]|$)')
if [ -n "$hits" ]; then
  echo "the image installs test frameworks:"
  printf '%s\n' "$hits"
  exit 1
fi
echo "no test framework installed in the image"
`,
  question:
    'Does the image install only what the agent needs to do the task, leaving dependencies used only by the ' +
    'tests (test frameworks, graders) out of environment/Dockerfile?',
  appliesTo: 'environment',
};

export const HARBOR_ITEMS: RubricItemDef[] = [
  behaviorInTaskDescription,
  behaviorInTests,
  informativeTestStructure,
  antiCheatingMeasures,
  structuredDataSchema,
  pinnedDependencies,
  typos,
  testsOrSolutionInImage,
  testDepsInImage,
  hardcodedSolution,
  fileReferenceMentioned,
];
