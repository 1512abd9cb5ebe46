// A shell session with a trial container's main process, over one attached stream: no exec.
//
// A `docker exec` costs a runc (or runsc) process of its own, 47 ms on these machines (71 under
// gVisor), and a trial used to need five of them; a script through an attached session costs 2 ms
// (7 under gVisor; bench/round-trips.ts). So the main process is a small supervisor that reads
// scripts from its stdin and runs each in a subshell, as root, in Harbor's phase order
// (trial-script.ts).
//
// The channels: a script's stdout (fd 1) is Envolve's control channel: `envolve:<nonce> <name>`
// lines, the cgroup counters and the result files. Everything the agent and the verifier print is
// sent to stderr (fd 2), which becomes the phase logs; phase boundaries are marked in the stderr
// stream itself ("\n<nonce> <log name>\n"), so every byte lands in the log of the phase that
// printed it (the engine may reorder the two pipes). The nonce is random per session, sent on
// stdin before any agent process exists, and lives only in the script's memory.
//
// The agent's commands run with stdout redirected to stderr and stdin from /dev/null. Under runc
// the kernel also refuses it the supervisor's and the script's descriptors (/proc/<pid>/fd needs
// ptrace access, which a lesser-privileged or other-user process lacks); under gVisor a root agent
// can open them. Neither matters: without the nonce nothing it writes is taken for a control line
// or a phase marker, and the tests are sent on stdin only after the script has said (with the
// nonce) that every agent process is gone. A session the agent broke is never reused while its
// processes may live: the trial restarts the container and opens a new session, with a new nonce.
//
// The main process is pid 1 of the container: signals from inside (the agent's `kill -9 -1`)
// do not reach it, so a session's end is always reported ("envolve:end <code>").
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { CappedLog } from './capped-log.ts';
import { LONGEST_TIMER_MS } from './timer-delay.ts';

export const SESSION_END = 'envolve:end';

// Makes Harbor's /logs directories (at start: off a pooled container's critical path), then reads
// `<length>\n<script>` frames and runs each script in a subshell (a fork, no exec: forks and execs
// cost tens of milliseconds under gVisor); stdin stays shared so a script reads the data sent
// after it. Bytes are characters under LC_ALL=C (for that read only: the agent keeps the image's
// locale), so `read -N` takes exactly the script. A frame that is not a length is skipped.
const SUPERVISOR = `mkdir -p /logs/agent /logs/verifier && chmod 0777 /logs/agent
while IFS= read -r n; do [[ $n =~ ^[0-9]+$ ]] || continue; LC_ALL=C IFS= read -r -N "$n" script; (eval "$script"); echo "${SESSION_END} $?"; done`;

/** The container options that make its main process the supervisor (its output is not logged: it is the trial's). */
export const SUPERVISED_MAIN_PROCESS: Pick<Docker.ContainerCreateOptions, 'Entrypoint' | 'Cmd' | 'OpenStdin' | 'StdinOnce' | 'AttachStdin'> = {
  Entrypoint: ['bash', '-c', SUPERVISOR],
  Cmd: [],
  OpenStdin: true,
  StdinOnce: false,
  AttachStdin: true,
};
export const NO_CONTAINER_LOG: Docker.HostConfig['LogConfig'] = { Type: 'none', Config: {} };

export interface ControlLine {
  name: string; // e.g. "agent-exit" for "envolve:<nonce> agent-exit 0"
  value: string;
}

/** One attach to a running supervised container. */
export class Session {
  readonly #nonce = randomBytes(16).toString('hex');
  readonly #logs = new Map<string, CappedLog>();
  #log: CappedLog;
  #stderrCarry = '';
  #stdout = '';
  #lines: string[] = [];
  #cursor = 0;
  #waiters: Array<() => void> = [];
  #ended = false;

  private constructor(private readonly stream: Duplex) {
    this.#log = this.logNamed('setup');
  }

  static async open(container: Docker.Container): Promise<Session> {
    const stream = (await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as Duplex;
    const session = new Session(stream);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stdout.on('data', (chunk: Buffer) => session.#onStdout(chunk));
    stderr.on('data', (chunk: Buffer) => session.#onStderr(chunk));
    container.modem.demuxStream(stream, stdout, stderr);
    const end = () => session.#end();
    stream.on('end', end);
    stream.on('close', end);
    stream.on('error', end);
    return session;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** The values of every control line `name` the script said so far (with its nonce). */
  said(name: string): string[] {
    const prefix = `envolve:${this.#nonce} ${name}`;
    return this.#lines.filter((l) => l === prefix || l.startsWith(`${prefix} `)).map((l) => l.slice(prefix.length + 1));
  }

  /** Everything the control channel carried so far (counters, markers). */
  get controlText(): string {
    return this.#lines.join('\n');
  }

  /** The log a script's `mark <name>` switched stderr to (made empty if it never was). */
  logNamed(name: string, maxBytes?: number): CappedLog {
    let log = this.#logs.get(name);
    if (!log) this.#logs.set(name, (log = new CappedLog(maxBytes)));
    return log;
  }

  /** Whether stderr has been switched to the log `name`. */
  marked(name: string): boolean {
    return this.#log === this.#logs.get(name);
  }

  /**
   * Sends a script, then the data it reads from stdin in order, to the supervisor. The script
   * gets `say` (a control line) and `mark` (switch the log stderr goes to).
   */
  run(script: string, data: Buffer[] = []): void {
    const framed = `IFS= read -r nonce
say() { printf 'envolve:%s %s\\n' "$nonce" "$*"; }
mark() { printf '\\n%s %s\\n' "$nonce" "$1" >&2; }
${script}`;
    this.send(Buffer.concat([Buffer.from(`${Buffer.byteLength(framed)}\n${framed}${this.#nonce}\n`), ...data]));
  }

  send(data: Buffer): void {
    if (!this.#ended) this.stream.write(data);
  }

  /**
   * The next control line ("envolve:<name> <value>", the session's end included), or undefined
   * when the stream ended or `timeoutMs` passed first.
   */
  async next(timeoutMs: number): Promise<ControlLine | undefined> {
    return this.#until(() => this.#take(), timeoutMs);
  }

  /** Waits (up to timeoutMs) until stderr has been switched to the log `name`. */
  async untilMarked(name: string, timeoutMs: number): Promise<boolean> {
    return (await this.#until(() => this.marked(name) || undefined, timeoutMs)) === true;
  }

  close(): void {
    this.stream.destroy();
  }

  async #until<T>(found: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = found();
      if (value !== undefined || this.#ended || Date.now() >= deadline) return value;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(deadline - Date.now(), LONGEST_TIMER_MS));
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  // A script's lines carry its nonce; the supervisor's end line cannot (it never learns the
  // nonce), so a forged one only makes the trial restart the container.
  #take(): ControlLine | undefined {
    const said = `envolve:${this.#nonce} `;
    while (this.#cursor < this.#lines.length) {
      const raw = this.#lines[this.#cursor++]!;
      const text = raw.startsWith(said) ? raw.slice(said.length) : raw.startsWith(`${SESSION_END} `) ? `end ${raw.slice(SESSION_END.length + 1)}` : undefined;
      const match = text === undefined ? null : /^([a-z-]+)(?: (.*))?$/.exec(text);
      if (match) return { name: match[1]!, value: match[2] ?? '' };
    }
    return undefined;
  }

  #onStdout(chunk: Buffer): void {
    this.#stdout += chunk.toString('latin1');
    const parts = this.#stdout.split('\n');
    this.#stdout = parts.pop() ?? '';
    if (parts.length === 0) return;
    this.#lines.push(...parts);
    this.#wake();
  }

  // Latin-1 maps bytes one to one, so slicing the text slices the bytes.
  #onStderr(chunk: Buffer): void {
    const prefix = `\n${this.#nonce} `;
    let text = this.#stderrCarry + chunk.toString('latin1');
    let switched = false;
    for (;;) {
      const at = text.indexOf(prefix);
      const eol = at < 0 ? -1 : text.indexOf('\n', at + prefix.length);
      if (eol < 0) break;
      this.#log.write(Buffer.from(text.slice(0, at), 'latin1'));
      this.#log = this.logNamed(text.slice(at + prefix.length, eol));
      text = text.slice(eol + 1);
      switched = true;
    }
    // Hold back what could be the start of a marker; write the rest.
    const start = text.indexOf(prefix);
    const hold = start >= 0 ? start : partialSuffix(text, prefix);
    this.#log.write(Buffer.from(text.slice(0, hold), 'latin1'));
    this.#stderrCarry = text.slice(hold);
    if (switched) this.#wake();
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#log.write(Buffer.from(this.#stderrCarry, 'latin1'));
    this.#stderrCarry = '';
    this.#wake();
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}

// Where a suffix of `text` that is a proper prefix of `marker` begins (text.length if none).
function partialSuffix(text: string, marker: string): number {
  for (let from = Math.max(0, text.length - marker.length + 1); from < text.length; from++) {
    if (marker.startsWith(text.slice(from))) return from;
  }
  return text.length;
}
