// The shell side of a trial, run by the container's supervisor (session.ts) as root, in Harbor's
// phase order. A script is put together from steps; each reports through `say` (control lines)
// and `mark` (which phase log stderr goes to):
//   setup   make /logs, unpack the solution from stdin        (fails: "failed <why>")
//   pause   "ready", then wait for a line on stdin             (the host snapshots, or runs an interactive agent)
//   agent   run the agent's command as the image's user        ("agent-exit <code>")
//   settle  kill everything but pid 1 and itself               ("leftovers <n>", then "settled" | "settle-failed <code>")
//   verify  clear /tests and /logs/verifier, unpack the tests from stdin (sent only after "settled"),
//           run the verifier, then the counters and the result files ("touched", "verifier-exit", "results")
import { UNPACK_STDIN } from './container-files.ts';
import { BUILTIN_PROBE } from './containment.ts';
import { AGENT_CAPABILITIES } from './resource-limits.ts';
import { SETTLE_LOOP } from './settle.ts';

export interface TrialScriptSteps {
  setup?: { solutionBytes: number };
  pause?: boolean;
  agent?: { argv: string[]; user: string; workingDir: string };
  settle?: boolean;
  verify?: { testsBytes: number; workingDir: string };
}

export const quote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

// Unpacks exactly `bytes` of stdin at /: what follows on stdin is not the tar's.
const unpack = (bytes: number) => `head -c ${bytes} | ${UNPACK_STDIN}`;

// Runs a command as the image's USER (name or uid, optionally :group) the way an exec with that
// user would: root keeps only AGENT_CAPABILITIES in its bounding set; any other user gets its
// ids, groups and HOME from /etc/passwd (a bare uid: gid 0, no groups) and no capabilities.
// /etc/passwd and /etc/group are read with builtins: a fork costs tens of ms under gVisor.
const RUN_AS = `run_as() {
  local spec=$1 u g name uid gid home=/ groups=--clear-groups found=
  shift
  u=\${spec%%:*}; [[ $spec == *:* ]] && g=\${spec#*:}
  while IFS=: read -r name _ uid gid _ home _; do
    [[ $name == "$u" || ($u =~ ^[0-9]+$ && $uid == "$u") ]] && { found=1; break; }
  done < /etc/passwd
  if [[ -n $found ]]; then
    groups=--init-groups
  elif [[ $u =~ ^[0-9]+$ ]]; then
    uid=$u gid=0 home=/
  else
    echo "envolve: no user '$u' in this image" >&2; return 126
  fi
  if [[ -n $g ]]; then
    if [[ $g =~ ^[0-9]+$ ]]; then gid=$g; else
      while IFS=: read -r name _ gid _; do [[ $name == "$g" ]] && break; gid=; done < /etc/group
      [[ -n $gid ]] || { echo "envolve: no group '$g' in this image" >&2; return 126; }
    fi
    groups=--clear-groups
  fi
  if ((uid == 0)); then
    exec setpriv --bounding-set=-all,${AGENT_CAPABILITIES.map((c) => `+${c.toLowerCase()}`).join(',')} -- "$@"
  fi
  HOME=$home exec setpriv --reuid="$uid" --regid="$gid" $groups -- "$@"
}`;

// The supervisor made /logs when the container started (session.ts).
function setupStep({ solutionBytes }: NonNullable<TrialScriptSteps['setup']>): string {
  const solution = solutionBytes > 0 ? `\n${unpack(solutionBytes)} || { say failed unpacking /solution; exit 1; }` : '';
  return `[[ -d /logs/agent && -d /logs/verifier ]] || { say failed making /logs; exit 1; }${solution}`;
}

function agentStep({ argv, user, workingDir }: NonNullable<TrialScriptSteps['agent']>): string {
  return `${RUN_AS}
mark agent
say phase agent
(cd -- ${quote(workingDir)} || exit 126; unset nonce; run_as ${quote(user)} ${argv.map(quote).join(' ')}) </dev/null >&2
code=$?
mark between
say agent-exit $code`;
}

// Fork-free until nothing is left (see settle.ts); the counters first, while the agent's processes still exist.
// "leftovers": how many processes the agent left running (evidence of daemons, a fork bomb).
const SETTLE_STEP = `${BUILTIN_PROBE}
${SETTLE_LOOP}
count
say leftovers $live
settle
code=$?
((code == 0)) || { say settle-failed $code; exit 0; }
say settled`;

function verifyStep({ testsBytes, workingDir }: NonNullable<TrialScriptSteps['verify']>): string {
  return `touched=0
shopt -s nullglob dotglob
left=(/logs/verifier/*)
shopt -u nullglob dotglob
((\${#left[@]} > 0)) && touched=1
[[ -e /tests || -L /tests ]] && touched=1
rm -rf /logs/verifier /tests || { say failed clearing /logs/verifier and /tests; exit 1; }
mkdir -p /logs/verifier & made=$!
${unpack(testsBytes)} || { say failed unpacking /tests; exit 1; }
wait $made || { say failed making /logs/verifier; exit 1; }
say touched $touched
mark verifier
say phase verifier
(cd -- ${quote(workingDir)} || exit 126; unset nonce; exec bash /tests/test.sh) </dev/null >&2
code=$?
mark after
say verifier-exit $code
${BUILTIN_PROBE}
set --
for f in reward.txt reward.json ctrf.json; do [ -f "/logs/verifier/$f" ] && set -- "$@" "$f"; done
if [ $# -eq 0 ]; then say results; else say results "$(tar -c -f - -C /logs/verifier "$@" | base64 -w0)"; fi`;
}

export function trialScript(steps: TrialScriptSteps): string {
  return [
    steps.setup && setupStep(steps.setup),
    steps.pause && 'say ready\nIFS= read -r _',
    steps.agent && agentStep(steps.agent),
    steps.settle && SETTLE_STEP,
    steps.verify && verifyStep(steps.verify),
  ]
    .filter(Boolean)
    .join('\n');
}
