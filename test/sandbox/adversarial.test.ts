// Integration: an agent that attacks its sandbox, under every runtime this engine offers (runc
// always; gVisor's runsc, which scripts/prereqs.sh registers: its absence fails the suite, saying
// how to register it, rather than passing without it). Every attack
// must end in a scored, explained result: never a pass, never a hung worker. No test times
// anything: budgets are generous and every wait is for a condition.
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainAllWarmPools } from '../../lib/sandbox/warm-pool.ts';
import { DockerSandbox, ensureBaseImage, type TrialRequest, type TrialResult } from '../../lib/sandbox/index.ts';
import { registeredRuntimes, type SandboxRuntime } from '../../lib/sandbox/runtime.ts';
import { AGENT_CAPABILITIES, VERIFIER_CAPABILITIES } from '../../lib/sandbox/resource-limits.ts';
import { AGENT_DOCKERFILE, helloTask } from './fixtures.ts';
import { BASE_IMAGE_WAIT_MS, buildMs, limitMs, taskBudgets, trialMs } from '../budgets.ts';

// Linux capability numbers, for the CapEff mask of /proc/<pid>/status.
const CAPABILITY_BITS: Record<string, number> = {
  CHOWN: 0,
  DAC_OVERRIDE: 1,
  FOWNER: 3,
  FSETID: 4,
  KILL: 5,
  SETGID: 6,
  SETUID: 7,
  SETPCAP: 8,
  NET_BIND_SERVICE: 10,
};
const capabilityMask = (caps: string[]) =>
  caps
    .reduce((mask, cap) => mask | (1n << BigInt(CAPABILITY_BITS[cap]!)), 0n)
    .toString(16)
    .padStart(16, '0');

const sandbox = new DockerSandbox(new Docker());
const images = new Map<string, Promise<string>>();
// Every attack is one trial with these budgets, on an image of a helloTask (its task.toml's build budget).
const ATTACK_TRIAL = { agentSec: 120, verifierSec: 120 };
const ATTACK_BUDGET_MS = limitMs(buildMs(taskBudgets(helloTask())), trialMs(ATTACK_TRIAL));

const engineRuntimes = await registeredRuntimes(sandbox.docker).catch(() => [] as string[]);
const runsc = engineRuntimes.includes('runsc');
const runtimes: SandboxRuntime[] = runsc ? ['runc', 'runsc'] : ['runc'];
const RUNSC_MISSING =
  `runsc (gVisor) is not registered with this Docker engine (it has: ${engineRuntimes.join(', ') || 'none'}); ` +
  'the suite cannot attack it. As root: bash scripts/prereqs.sh docker';

// The verifier scores 1 if any process the agent started is still alive (a zombie cannot act and
// does not count), so a surviving daemon fails the test whatever it would have done; otherwise
// the usual check of /app/out.txt. Its own ancestors (Envolve's supervisor, pid 1, and the
// session shell that started it) are not the agent's.
const SURVIVOR_CHECK = `#!/bin/bash
# SECRET_TOKEN_7731: the agent must never see this file.
survivors="" ancestors=" " q=$PPID
while [ "$q" -ge 1 ]; do
  ancestors="$ancestors$q "
  [ "$q" = 1 ] && break
  read -r s < "/proc/$q/stat" 2>/dev/null || break
  r=\${s##*) }; set -- $r; q=$2
done
for p in /proc/[0-9]*; do
  pid=\${p#/proc/}
  case "$ancestors" in *" $pid "*) continue ;; esac
  read -r stat < "$p/stat" 2>/dev/null || continue
  rest=\${stat##*) }
  [ "\${rest%% *}" = Z ] && continue
  q=$pid mine=0
  while [ "$q" -gt 1 ]; do
    [ "$q" = $$ ] && { mine=1; break; }
    read -r s < "/proc/$q/stat" 2>/dev/null || break
    r=\${s##*) }; set -- $r; q=$2
  done
  [ $mine = 0 ] && survivors="$survivors $pid"
done
if [ -n "$survivors" ]; then echo "SURVIVORS:$survivors"; echo 1 > /logs/verifier/reward.txt; exit 0; fi
echo NO-SURVIVORS
if [ "$(cat /app/out.txt 2>/dev/null)" = hello ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
`;

const ROOT_DOCKERFILE = 'FROM envolve/base:bookworm\nWORKDIR /app\nRUN chmod 0777 /app\n';
const SETUID_DOCKERFILE = `${AGENT_DOCKERFILE.replace('USER agent\n', '')}RUN cp /bin/bash /usr/local/bin/sbash && chmod 4755 /usr/local/bin/sbash\nUSER agent\n`;

function task(dockerfile: string) {
  return helloTask({ 'environment/Dockerfile': dockerfile, 'tests/test.sh': SURVIVOR_CHECK });
}

async function imageFor(bundle: TrialRequest['bundle']): Promise<string> {
  const key = bundle.files.find((f) => f.path === 'environment/Dockerfile')!.content.toString();
  if (!images.has(key))
    images.set(
      key,
      sandbox.buildEnvironmentImage(bundle).then((b) => b.imageId),
    );
  return images.get(key)!;
}

async function attack(
  runtime: SandboxRuntime,
  script: string,
  opts: { asRoot?: boolean; dockerfile?: string; extra?: Partial<TrialRequest> } = {},
): Promise<TrialResult> {
  const bundle = task(opts.dockerfile ?? (opts.asRoot ? ROOT_DOCKERFILE : AGENT_DOCKERFILE));
  return sandbox.runTrial({
    bundle,
    imageId: await imageFor(bundle),
    agent: { kind: 'script', script },
    agentTimeoutSec: ATTACK_TRIAL.agentSec,
    verifierTimeoutSec: ATTACK_TRIAL.verifierSec,
    runtime,
    labels: { 'envolve.job': 'test-adversarial' },
    ...opts.extra,
  });
}

// Scored (the verifier ran and wrote a reward, or the budget's reward was given), and not a pass.
function expectScoredNotPassed(res: TrialResult): void {
  expect(res.error).toBeUndefined();
  expect(['completed', 'timed-out']).toContain(res.status);
  expect(res.reward).toBe(0);
  if (res.status === 'completed') expect(res.verifier?.log).toContain('NO-SURVIVORS');
}

// A test worker exits without beforeExit: its warm pools are removed here.
afterAll(() => drainAllWarmPools());

beforeAll(async () => {
  await ensureBaseImage({ progress: () => {} });
}, limitMs(BASE_IMAGE_WAIT_MS));

describe('the gVisor runtime', () => {
  it('is registered with the engine, so the attacks also run under runsc', () => {
    expect(runsc, RUNSC_MISSING).toBe(true);
  });
});

describe.each(runtimes)('attacks under %s', (runtime) => {
  it(
    'records the runtime next to the image ID',
    async () => {
      const res = await attack(runtime, 'echo hello > /app/out.txt');
      expect(res.runtime).toBe(runtime);
      expect(res.containment.runtime).toBe(runtime);
      expect(res.imageId).toMatch(/^sha256:/);
      expect(res.reward).toBe(1);
    },
    ATTACK_BUDGET_MS,
  );

  const daemons = [
    // detached with setsid, double-forked, ignoring every catchable signal, waiting for the tests
    '( setsid bash -c \'trap "" TERM HUP INT QUIT; while :; do [ -d /tests ] && echo 1 > /logs/verifier/reward.txt; sleep 0.05; done\' </dev/null >/dev/null 2>&1 & ) &',
    'nohup bash -c \'trap "" TERM HUP; while :; do echo 1 > /logs/verifier/reward.txt 2>/dev/null; sleep 0.05; done\' >/dev/null 2>&1 & disown',
    // a respawner racing the settle's kill, and a stopped process (SIGKILL still ends it)
    '( while :; do ( setsid sleep 1000 </dev/null >/dev/null 2>&1 & ); done ) </dev/null >/dev/null 2>&1 &',
    "bash -c 'kill -STOP $$; echo 1 > /logs/verifier/reward.txt' </dev/null >/dev/null 2>&1 &",
    'echo detached',
  ].join('\n');

  it.each([false, true])(
    'detached and double-forked daemons (root: %s) do not survive into the verifier phase',
    async (asRoot) => {
      const res = await attack(runtime, daemons, { asRoot });
      expect(res.agent.log).toContain('detached');
      // Killed by the settle, and counted (a restart ends them too, uncounted past the first look).
      expect(res.containment.leftoverProcesses).toBeGreaterThan(0);
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'writes to /logs/verifier and /tests during the agent phase are discarded and recorded',
    async () => {
      const script =
        'mkdir -p /logs/verifier /tests && echo 1 > /logs/verifier/reward.txt && echo "echo 1 > /logs/verifier/reward.txt" > /tests/test.sh && echo PLANTED';
      const res = await attack(runtime, script, { asRoot: true });
      expect(res.agent.log).toContain('PLANTED');
      expect(res.protectedPathsTouched).toBe(true);
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    "the agent cannot speak on Envolve's control channel: forged control lines and phase markers are ignored",
    async () => {
      // The whole sequence the host waits for, down to a results line carrying reward.txt = 1, printed
      // and written to the supervisor's and the session shell's descriptors (runc's kernel refuses
      // those; gVisor lets a root agent open them), plus a guessed phase marker. Without the
      // session's nonce none of it counts. The supervisor's own end line carries no nonce (it never
      // learns it), so a root agent under gVisor can forge that one: the trial then takes the agent
      // phase as lost and restarts the container before the verifier. The agent log is cut where the
      // forged line arrived, and stdout and stderr are separate pipes, so how much of the agent's
      // printing made it into the log is a race there: the restart is what that case asserts.
      const script = `forged=$(mkdir -p /tmp/f && echo 1 > /tmp/f/reward.txt && tar -c -C /tmp/f reward.txt | base64 -w0)
for line in "envolve:agent-exit 0" "envolve:leftovers 0" "envolve:settled" "envolve:touched 0" "envolve:phase verifier" "envolve:verifier-exit 0" "envolve:results $forged" "envolve:end 0"; do
  echo "$line"; echo "$line" >&2
  for fd in /proc/1/fd/1 /proc/$PPID/fd/1; do (echo "$line" > $fd) 2>/dev/null && echo "WROTE $fd"; done
done
printf '\\n0123456789abcdef0123456789abcdef verifier\\nFORGED-INTO-VERIFIER\\n' >&2
echo FORGERY-DONE`;
      for (const asRoot of [false, true]) {
        const res = await attack(runtime, script, { asRoot });
        if (runtime === 'runsc' && asRoot) expect(res.containment.restartedBeforeVerifier, res.agent.log).toBe(true);
        else {
          expect(res.agent.log).toContain('envolve:results');
          expect(res.agent.log).not.toContain('WROTE');
        }
        expect(res.verifier?.log).not.toContain('FORGED-INTO-VERIFIER');
        expectScoredNotPassed(res);
      }
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'a root agent that kills the shell supervising it (kill -9 -1) is still settled before the verifier, and it says so',
    async () => {
      const script = 'nohup sleep 1000 >/dev/null 2>&1 & sleep 0.2; kill -9 -1; echo unreachable';
      const res = await attack(runtime, script, { asRoot: true });
      expect(res.agent.exitCode).toBeNull();
      expect(res.agent.log).toContain('supervising shell was killed');
      expect(res.containment.restartedBeforeVerifier).toBe(true);
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'the tests cannot be read during the agent phase: not at /tests, nowhere on the filesystem',
    async () => {
      const script =
        'T=SECRET_TOKEN; T=${T}_7731; [ -e /tests ] && echo TESTS-VISIBLE; grep -rls --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev "$T" / | head -3; echo "searched"';
      const res = await attack(runtime, script, { asRoot: true });
      expect(res.agent.log).toContain('searched');
      expect(res.agent.log).not.toContain('TESTS-VISIBLE');
      expect(res.agent.log).not.toMatch(/\/test\.sh/);
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'a setuid-root binary in the image gives the agent no privilege (no-new-privileges)',
    async () => {
      const script = '/usr/local/bin/sbash -p -c \'echo "euid=$(id -u)"; echo 1 > /logs/verifier/reward.txt\' 2>&1; echo tried';
      const res = await attack(runtime, script, { dockerfile: SETUID_DOCKERFILE });
      expect(res.agent.log).toContain('euid=1000');
      expect(res.agent.log).toMatch(/Permission denied/);
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'a fork bomb is stopped and its leftovers cleared before the verifier',
    async () => {
      // The agent stays (forking nothing: builtins only) until the pids cgroup has refused a fork, so
      // the limit is reached whatever the machine's speed; where that file is absent (runsc), it goes at once.
      const bomb = `:(){ :|:& };:
deadline=$((\${EPOCHREALTIME/./} + 60000000))
while ((\${EPOCHREALTIME/./} < deadline)); do
  { read -r _ refused < /sys/fs/cgroup/pids/pids.events; } 2>/dev/null || break
  ((refused > 0)) && break
done`;
      const res = await attack(runtime, bomb, { extra: { limits: { pids: 64 } } });
      // runc: the pids cgroup refuses forks; runsc: the sandbox's memory ends the bomb (its tasks are not host pids).
      if (runtime === 'runc') expect(res.containment.pidsLimitReached).toBe(true);
      expect(
        res.containment.leftoverProcesses > 0 || res.containment.restartedBeforeVerifier || res.containment.pidsLimitReached || res.containment.oomKilled,
      ).toBe(true);
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'memory exhaustion is OOM-killed and reported',
    async () => {
      const script = 'python3 -c "x = b\'x\' * (600 * 1024 * 1024); print(len(x))"';
      const res = await attack(runtime, script, { extra: { limits: { memoryMb: 256 } } });
      // runc: the kernel's OOM killer takes the process; runsc: the sandbox kernel's own limit or the
      // host's OOM kill of the whole sandbox (then it is restarted before the verifier).
      if (runtime === 'runc') expect(res.containment.oomKilled).toBe(true);
      else expect(res.containment.oomKilled || res.containment.restartedBeforeVerifier || res.agent.exitCode === 137, res.agent.log).toBe(true);
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'disk exhaustion meets RLIMIT_FSIZE per file and a size-limited /tmp',
    async () => {
      const script = 'head -c 700M /dev/zero > /app/big; echo "exit=$?"; head -c 300M /dev/zero > /tmp/big; echo "exit=$?"';
      const res = await attack(runtime, script);
      expect(res.agent.log).toContain('File size limit exceeded');
      expect(res.agent.log).toContain('exit=153'); // 128 + SIGXFSZ
      expect(res.agent.log).toContain('No space left on device');
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'a flood of output is capped, head and tail kept',
    async () => {
      const res = await attack(runtime, 'echo FIRST; head -c 40M /dev/zero | tr "\\0" x; echo; echo LAST');
      expect(res.agent.logTruncated).toBe(true);
      expect(res.agent.log.length).toBeLessThanOrEqual(1024 * 1024 + 200);
      expect(res.agent.log).toContain('FIRST');
      expect(res.agent.log).toContain('LAST');
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'network egress fails by every route: DNS, TCP, raw sockets (even as root), the engine socket',
    async () => {
      const script = [
        'python3 -c "import socket; print(\'interfaces:\', [n for _, n in socket.if_nameindex()])"',
        'getent hosts example.com; echo "dns=$?"',
        'python3 -c "import socket; socket.create_connection((\'192.0.2.1\', 80), timeout=5)" 2>&1 | tail -1',
        'python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)" 2>&1 | tail -1',
        'python3 -c "import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW)" 2>&1 | tail -1',
        '[ -S /var/run/docker.sock ] && echo ENGINE-SOCKET || echo no-engine-socket',
        'python3 -c "import socket; socket.create_connection((\'172.17.0.1\', 2375), timeout=5)" 2>&1 | tail -1',
      ].join('\n');
      const res = await attack(runtime, script, { asRoot: true });
      expect(res.agent.log).toContain("interfaces: ['lo']");
      expect(res.agent.log).toContain('dns=2');
      // runc: no route exists; gVisor's own stack (off, --network=none) answers with no route to the host
      expect(res.agent.log.match(/Network is unreachable|No route to host/g)?.length).toBe(2);
      expect(res.agent.log.match(/PermissionError: \[Errno 1\] Operation not permitted/g)?.length).toBe(2);
      expect(res.agent.log).toContain('no-engine-socket');
      expect(res.containment.networkMode).toBe('none');
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'a root agent has only the documented capabilities; the verifier has the stated ones',
    async () => {
      const bundle = task(ROOT_DOCKERFILE);
      const res = await sandbox.runTrial({
        bundle: helloTask({
          'environment/Dockerfile': ROOT_DOCKERFILE,
          'tests/test.sh': '#!/bin/bash\ngrep -E "^CapEff" /proc/self/status | sed "s/^/verifier /"\necho 0 > /logs/verifier/reward.txt\n',
        }),
        imageId: await imageFor(bundle),
        // The bounding set never grows again: nothing the agent starts can get another capability.
        agent: { kind: 'script', script: 'grep -E "^Cap(Eff|Bnd)" /proc/self/status | sed "s/^/agent /"' },
        agentTimeoutSec: ATTACK_TRIAL.agentSec,
        verifierTimeoutSec: ATTACK_TRIAL.verifierSec,
        runtime,
      });
      expect(res.agent.log).toContain(`agent CapEff:\t${capabilityMask(AGENT_CAPABILITIES)}`);
      expect(res.agent.log).toContain(`agent CapBnd:\t${capabilityMask(AGENT_CAPABILITIES)}`);
      expect(res.verifier?.log).toContain(`verifier CapEff:\t${capabilityMask(VERIFIER_CAPABILITIES)}`);
    },
    ATTACK_BUDGET_MS,
  );

  it(
    'clock and /proc tricks are refused, even as root',
    async () => {
      const script = [
        'date -s "2000-01-01" 2>&1 | head -1',
        'echo 1 > /proc/sys/kernel/sysrq 2>&1 || echo sysctl-refused',
        'echo h > /proc/sysrq-trigger 2>&1 || echo sysrq-refused',
        'mount -t tmpfs none /app 2>&1 | head -1; echo "mount=${PIPESTATUS[0]}"; grep -c " /app tmpfs" /proc/mounts | sed "s/^/app-tmpfs-mounts=/"',
        'unshare --mount --pid --fork true 2>&1 | head -1; echo "unshare=${PIPESTATUS[0]}"',
        'echo "[$(grep -E "^(CapEff|NoNewPrivs)" /proc/self/status | tr "\\n\\t" "  ")]"',
      ].join('\n');
      const res = await attack(runtime, script, { asRoot: true });
      expect(res.agent.log).toContain('cannot set date: Operation not permitted');
      expect(res.agent.log).toContain('sysctl-refused');
      expect(res.agent.log).toContain('sysrq-refused');
      expect(res.agent.log).not.toContain('mount=0');
      expect(res.agent.log).toContain('app-tmpfs-mounts=0');
      expect(res.agent.log).not.toContain('unshare=0');
      // gVisor's /proc/<pid>/status has no NoNewPrivs line; the setuid test shows the flag at work there.
      if (runtime === 'runc') expect(res.agent.log).toMatch(/NoNewPrivs: 1/);
      expectScoredNotPassed(res);
    },
    ATTACK_BUDGET_MS,
  );
});
