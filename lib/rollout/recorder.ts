// Records a rollout as it happens: step 1 is the instruction (source 'user'), then one agent step
// per command the policy runs, carrying the note (message, reasoning, tokens) the policy attached
// before it. A note with no command after it becomes a final message-only step.
import type { CommandResult, Terminal, TurnNote } from './types.ts';
import { RefusedError } from '../errors/index.ts';

export interface RecordedStep {
  stepId: number;
  source: 'user' | 'agent';
  message: string;
  reasoning?: string;
  command?: string;
  output?: string;
  outputTruncated?: boolean;
  exitCode?: number | null;
  durationMs?: number;
  timedOut: boolean;
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  timestamp: Date;
}

// Thrown by the recorded terminal when the policy asks for one command more than maxTurns; the
// runner ends the agent phase there and the verifier scores what the agent did.
export class TurnLimitReached extends RefusedError {
  constructor(readonly maxTurns: number) {
    super(`the policy asked for more than ${maxTurns} commands`, { code: 'turn_limit_reached', details: { maxTurns } });
  }
}

export class TrajectoryRecorder {
  readonly steps: RecordedStep[];
  private pending: TurnNote | undefined;
  private commands = 0;

  constructor(
    instruction: string,
    private readonly maxTurns: number,
  ) {
    this.steps = [{ stepId: 1, source: 'user', message: instruction, timedOut: false, timestamp: new Date() }];
  }

  get turns(): number {
    return this.commands;
  }

  note(turn: TurnNote): void {
    const prior = this.pending;
    this.pending = {
      message: [prior?.message, turn.message].filter((m) => m !== undefined && m !== '').join('\n') || undefined,
      reasoning: [prior?.reasoning, turn.reasoning].filter((m) => m !== undefined && m !== '').join('\n') || undefined,
      usage: turn.usage ?? prior?.usage,
    };
  }

  wrap(terminal: Terminal): Terminal {
    return {
      run: async (command, opts) => {
        if (this.commands >= this.maxTurns) throw new TurnLimitReached(this.maxTurns);
        this.commands += 1;
        const note = this.takeNote();
        const timestamp = new Date();
        let result: CommandResult;
        try {
          result = await terminal.run(command, opts);
        } catch (err) {
          const failed = `[envolve: the command could not be run: ${err instanceof Error ? err.message : String(err)}]\n`;
          this.push(note, timestamp, {
            command,
            output: failed,
            exitCode: null,
            durationMs: Date.now() - timestamp.getTime(),
            timedOut: false,
            outputTruncated: false,
          });
          throw err;
        }
        this.push(note, timestamp, { command, ...result });
        return result;
      },
    };
  }

  // Called when the policy is done: a note it left without a command is its final message.
  finish(): void {
    const note = this.takeNote();
    if (note) this.push(note, new Date(), { timedOut: false });
  }

  private takeNote(): TurnNote | undefined {
    const note = this.pending;
    this.pending = undefined;
    return note;
  }

  private push(note: TurnNote | undefined, timestamp: Date, fields: Partial<RecordedStep> & { timedOut: boolean }): void {
    this.steps.push({
      stepId: this.steps.length + 1,
      source: 'agent',
      message: note?.message ?? '',
      ...(note?.reasoning !== undefined ? { reasoning: note.reasoning } : {}),
      ...(note?.usage?.promptTokens !== undefined ? { promptTokens: note.usage.promptTokens } : {}),
      ...(note?.usage?.completionTokens !== undefined ? { completionTokens: note.usage.completionTokens } : {}),
      ...(note?.usage?.cachedTokens !== undefined ? { cachedTokens: note.usage.cachedTokens } : {}),
      ...fields,
      timestamp,
    });
  }
}

// A command that reads or writes where the verifier lives: the reward files, /logs, the tests.
const PROTECTED = /(^|[\s'"=:;|&(<>])\/(logs|tests)(\/|\b)|reward\.(txt|json)/;

export function touchesProtected(command: string): boolean {
  return PROTECTED.test(command);
}
