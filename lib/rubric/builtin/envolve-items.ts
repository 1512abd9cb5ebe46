// Envolve's own environment items: contracts its sandbox and evolution rely on
// (the reward file, offline builds, answers kept out of the image and the solution).
import type { RubricItemDef } from '../types.ts';
import { DOCKERFILE_INSTRUCTIONS } from './dockerfile-shell.ts';
import { STRINGS_FOUND } from './strings-found-shell.ts';

const rewardFileWritten: RubricItemDef = {
  key: 'reward_file_written',
  title: 'The verifier writes /logs/verifier/reward.txt or reward.json',
  description:
    "Harbor reads the reward from a file, never from test.sh's exit code; a verifier that writes neither file " +
    'gives every trial an error instead of a score.',
  check: String.raw`[ -f tests/test.sh ] || { echo "tests/test.sh is missing"; exit 1; }
if grep -rqE '/logs/verifier/reward\.(txt|json)' tests/; then
  echo "tests/ writes $(grep -rhoE '/logs/verifier/reward\.(txt|json)' tests/ | sort -u | tr '\n' ' ')"
  exit 0
fi
# Also accept a directory variable, e.g. LOGS=/logs/verifier ... > "$LOGS/reward.txt".
if grep -rq '/logs/verifier' tests/ && grep -rqE 'reward\.(txt|json)' tests/; then
  echo "tests/ names /logs/verifier and a reward.txt/reward.json file"
  exit 0
fi
echo "nothing under tests/ writes /logs/verifier/reward.txt or /logs/verifier/reward.json"
exit 1
`,
  question: null,
  appliesTo: 'environment',
};

const dockerfileOffline: RubricItemDef = {
  key: 'dockerfile_offline',
  title: 'The Dockerfile installs nothing from the network',
  description:
    'Images are built without network access, and a build that downloads is neither reproducible nor pinned: ' +
    'no apt-get/apk/pip/npm installs, no curl/wget, no git clone in RUN instructions. Everything a task needs ' +
    'comes from the base image or from files in environment/.',
  check:
    DOCKERFILE_INSTRUCTIONS +
    String.raw`[ -f environment/Dockerfile ] || { echo "no environment/Dockerfile"; exit 0; }
# A command word starts a line or follows a shell separator; paths like /var/lib/apt do not count.
start='(^|[[:space:];&|(])'
opts='([[:space:]]+-[^[:space:]]+)*'
pkg="$start(apt-get|apt|aptitude|apk|yum|dnf|microdnf|zypper|pip|pip3|pipx|conda|mamba|npm|yarn|pnpm|gem|cargo|bundle|composer)$opts[[:space:]]+(install|add|update|upgrade|ci|i|sync)([[:space:]]|$)"
fetch="$start(curl|wget|uvx)([[:space:]]|$)|$start(git$opts[[:space:]]+(clone|fetch|pull|submodule)|uv$opts[[:space:]]+(pip|sync|add|tool)|go$opts[[:space:]]+(get|install|mod[[:space:]]+download)|python3?[[:space:]]+-m[[:space:]]+pip[[:space:]]+install)([[:space:]]|$)"
hits=$(dockerfile_instructions RUN | grep -E "$pkg|$fetch")
if [ -n "$hits" ]; then
  echo "RUN instructions that reach the network:"
  printf '%s\n' "$hits"
  exit 1
fi
echo "no RUN instruction downloads or installs packages"
`,
  question: null,
  appliesTo: 'environment',
};

const imageCopiesNoSolutionOrTests: RubricItemDef = {
  key: 'image_copies_no_solution_or_tests',
  title: 'The image does not COPY solution/ or tests/',
  description:
    'The agent works inside the image: a solution or test file copied into it (or placed at /solution or /tests) ' +
    'hands the agent the answer or the grader.',
  check:
    DOCKERFILE_INSTRUCTIONS +
    String.raw`[ -f environment/Dockerfile ] || { echo "no environment/Dockerfile"; exit 0; }
bad=0
while IFS= read -r line; do
  # Files from another build stage are not task files.
  case "$line" in *--from=*) continue ;; esac
  # Arguments without the keyword, flags, and JSON-array punctuation.
  args=$(printf '%s\n' "$line" | sed -E 's/^[[:space:]]*[A-Za-z]+[[:space:]]+//; s/--[a-z-]+=[^[:space:]]*//g; s/[][",]/ /g')
  for arg in $args; do
    path=$(printf '%s' "$arg" | sed -E 's#^\./##; s#/+$##')
    case "$path" in
      solution|solution/*|*/solution|*/solution/*|tests|tests/*|*/tests|*/tests/*|solve.sh|*/solve.sh|test.sh|*/test.sh)
        echo "copies $arg into the image: $line"; bad=1 ;;
    esac
  done
done <<EOF
$(dockerfile_instructions COPY ADD)
EOF
[ "$bad" -eq 0 ] && echo "no COPY or ADD names solution/, tests/, solve.sh or test.sh"
exit "$bad"
`,
  question: null,
  appliesTo: 'environment',
};

const outputPathsInInstruction: RubricItemDef = {
  key: 'output_paths_in_instruction',
  title: 'Every /app path the tests check is mentioned in instruction.md',
  description:
    'An agent can only produce what it was told about: a file under /app that tests/ reads (an output to write, ' +
    'an input to leave unchanged) must be named in the instruction, by its full path or its path relative to /app.',
  check:
    STRINGS_FOUND +
    String.raw`[ -f instruction.md ] || { echo "instruction.md is missing"; exit 1; }
[ -d tests ] || { echo "no tests/"; exit 0; }
# Absolute /app paths only (not /srv/app/...); a trailing dot or slash is punctuation.
paths=$(grep -rhoIE '(^|[^A-Za-z0-9_./-])/app/[A-Za-z0-9._/-]*[A-Za-z0-9_]' tests/ | sed -E 's#^[^/]##' | sort -u)
# A path counts as mentioned by its full path anywhere, or by its part below /app as a word.
unnamed=$(comm -23 <(printf '%s\n' "$paths" | sed '/^$/d') <(strings_found <(printf '%s\n' "$paths") instruction.md | sort -u))
relative=$(printf '%s\n' "$unnamed" | sed '/^$/d; s#^/app/##' | sort -u)
missing=$(comm -23 <(printf '%s\n' "$relative" | sed '/^$/d') <(strings_found -w <(printf '%s\n' "$relative") instruction.md | sort -u))
if [ -n "$missing" ]; then
  printf '%s\n' "$missing" | while IFS= read -r path; do echo "tests/ uses /app/$path but instruction.md never mentions it"; done
  exit 1
fi
echo "every /app path in tests/ is in instruction.md: $(printf '%s ' $paths)"
`,
  question: null,
  appliesTo: 'environment',
};

const solutionHasNoLiteralAnswers: RubricItemDef = {
  key: 'solution_has_no_literal_answers',
  title: 'solution/solve.sh does not contain the expected answers literally',
  description:
    'A reference solution that prints the answers proves nothing about the task: the oracle must compute them. ' +
    'When tests/expected.json holds the expected values (procedural tasks), none of its distinctive values ' +
    '(at least 4 characters with a digit) may appear verbatim in solve.sh, unless instruction.md gives that ' +
    'value to the agent too (a step id, a threshold): then it is an input, not an answer.',
  check:
    STRINGS_FOUND +
    String.raw`[ -f tests/expected.json ] || { echo "no tests/expected.json: nothing to compare"; exit 0; }
[ -f solution/solve.sh ] || { echo "no solution/solve.sh"; exit 0; }
values=$(jq -r '.. | scalars | tostring' tests/expected.json) || { echo "tests/expected.json is not valid JSON"; exit 1; }
instruction=instruction.md
[ -f "$instruction" ] || instruction=/dev/null
distinctive=$(printf '%s\n' "$values" | awk 'length($0) >= 4 && /[0-9]/ && !/^\//' | sort -u)
in_solution=$(strings_found -w <(printf '%s\n' "$distinctive") solution/solve.sh)
given=$(strings_found -w <(printf '%s\n' "$in_solution") "$instruction")
literal=$(comm -23 <(printf '%s\n' "$in_solution" | sed '/^$/d' | sort -u) <(printf '%s\n' "$given" | sed '/^$/d' | sort -u))
if [ -n "$literal" ]; then
  printf '%s\n' "$literal" | while IFS= read -r value; do echo "solve.sh contains the expected value '$value' literally"; done
  exit 1
fi
echo "no expected value from tests/expected.json appears in solve.sh"
`,
  question: null,
  appliesTo: 'environment',
};

export const ENVOLVE_ITEMS: RubricItemDef[] = [
  rewardFileWritten,
  dockerfileOffline,
  imageCopiesNoSolutionOrTests,
  outputPathsInInstruction,
  solutionHasNoLiteralAnswers,
];
