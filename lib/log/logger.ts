// One levelled logger for the web server, the workers and the CLI (pino, no transports). Records
// go to stderr (stdout is the CLI's answer, e.g. a --json document): one JSON object per line when
// read by a machine (ENVOLVE_LOG_FORMAT=json, or `auto` with stderr not a terminal), a short
// readable line in a terminal. Context travels as fields (jobId, lineageId, versionId, …) rather
// than inside the message, so a log store can filter on them. A record is
// {"time": ISO 8601, "level": "info", "msg": …, …fields}.
import { pino, type Logger as Pino } from 'pino';
import { settings, type LogLevel } from '../config/index.ts';

export type { LogLevel };
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every record. */
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  level: LogLevel;
  format: 'json' | 'pretty';
  write: (line: string) => void;
  now?: () => Date;
}

interface ErrorRecord {
  name: string;
  message: string;
  stack?: string;
}

// An Error has no enumerable fields: serialised as it is, it would print {}.
function plain(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack } satisfies ErrorRecord;
  return value;
}

// In the terminal an error shows its message only; by then it is the plain record above.
const isErrorRecord = (value: unknown): value is ErrorRecord =>
  typeof value === 'object' && value !== null && typeof (value as ErrorRecord).name === 'string' && typeof (value as ErrorRecord).message === 'string';

function prettyValue(value: unknown): string {
  if (isErrorRecord(value)) return JSON.stringify(value.message);
  if (typeof value === 'string') return /^[\w./:@-]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

// The terminal line for a record pino wrote: "17:40:05 WARN  message  key=value …".
function prettyLine(json: string): string {
  const { time, level, msg, ...fields } = JSON.parse(json) as { time: string; level: string; msg: string } & LogFields;
  const context = Object.entries(fields)
    .map(([key, value]) => `${key}=${prettyValue(value)}`)
    .join(' ');
  return `${time.slice(11, 19)} ${level.toUpperCase().padEnd(5)} ${msg}${context ? `  ${context}` : ''}`;
}

function pinoFor(options: LoggerOptions): Pino<never, boolean> {
  const now = options.now ?? (() => new Date());
  return pino(
    {
      level: options.level,
      base: undefined, // no pid or hostname on every record
      timestamp: () => `,"time":"${now().toISOString()}"`,
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, plain(value)])),
      },
      // The log formatter has made errors plain already; pino's own err serializer would rename name to type.
      serializers: { err: (value: unknown) => value },
    },
    { write: (line: string) => options.write(options.format === 'json' ? line.trimEnd() : prettyLine(line)) },
  );
}

// Fields are bound here rather than with pino's child(), which would repeat a key that a record
// sets again; here the record's own value replaces the bound one.
function wrap(base: Pino<never, boolean>, bound: LogFields): Logger {
  const at =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}): void =>
      base[level]({ ...bound, ...fields }, message);
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => wrap(base, { ...bound, ...fields }),
  };
}

export function createLogger(options: LoggerOptions, bound: LogFields = {}): Logger {
  return wrap(pinoFor(options), bound);
}

let processLogger: Logger | undefined;

/** This process's logger: level and format from the settings, written to stderr. */
export function logger(): Logger {
  if (!processLogger) {
    const { level, format } = settings().log;
    processLogger = createLogger({
      level,
      format: format === 'auto' ? (process.stderr.isTTY ? 'pretty' : 'json') : format,
      write: (line) => void process.stderr.write(`${line}\n`),
    });
  }
  return processLogger;
}
