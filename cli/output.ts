// Every command prints one JSON document on stdout with --json, or readable text without it;
// progress is a log record (lib/log: stderr, JSON when not a terminal) so that stdout stays parseable.
import { DomainError, RefusedError } from '../lib/errors/index.ts';
import { logger } from '../lib/log/index.ts';

export interface OutputOptions {
  json?: boolean;
}

export function emit<T>(options: OutputOptions, value: T, human: (value: T) => string): void {
  process.stdout.write(options.json ? `${JSON.stringify(value, null, 2)}\n` : `${human(value)}\n`);
}

export function progress(message: string): void {
  logger().info(message);
}

// Text for the person at the terminal that must never become a log record (a generated password).
export function notice(message: string): void {
  process.stderr.write(`${message}\n`);
}

export interface FailureDocument {
  ok: false;
  error: string; // the message
  code: string; // a domain error's code (lib/errors), or `failed` for any other error
  details?: Record<string, unknown>; // a domain error's details, when it has any
}

// What --json prints for a failure: a script branches on `code`, as a web client does on `error`.
export function failureDocument(error: unknown): FailureDocument {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof DomainError)) return { ok: false, error: message, code: 'failed' };
  return { ok: false, error: message, code: error.code, ...(Object.keys(error.details).length ? { details: error.details } : {}) };
}

// Exit 2 when a rule of the domain refused the request (it was understood and will not be done as
// asked), 1 for any other failure. With --json a domain error adds its code and details.
export function fail(options: OutputOptions, error: unknown): never {
  const failure = failureDocument(error);
  if (options.json) process.stdout.write(`${JSON.stringify(failure)}\n`);
  else process.stderr.write(`envolve: ${failure.error}\n`);
  process.exit(error instanceof RefusedError ? 2 : 1);
}

export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, col) => cell.padEnd(widths[col] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function shortId(id: string | null | undefined, length = 12): string {
  if (!id) return '–';
  return id.replace(/^sha256:/, '').slice(0, length);
}
