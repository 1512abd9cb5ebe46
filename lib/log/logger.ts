// One levelled logger for the web server, the workers and the CLI. Records go to stderr (stdout
// is the CLI's answer, e.g. a --json document): one JSON object per line when read by a machine
// (ENVOLVE_LOG_FORMAT=json, or `auto` with stderr not a terminal), a short readable line in a
// terminal. Context travels as fields (jobId, lineageId, versionId, …) rather than inside the
// message, so a log store can filter on them.
import { LOG_LEVELS, settings, type LogLevel } from '../config/settings.ts';

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

// An Error has no enumerable fields: JSON.stringify would print {}.
function plain(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

function prettyValue(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.message);
  if (typeof value === 'string') return /^[\w./:@-]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

function formatRecord(options: LoggerOptions, level: LogLevel, message: string, fields: LogFields): string {
  const time = (options.now ?? (() => new Date()))();
  if (options.format === 'json') {
    const entries = Object.entries(fields).map(([key, value]) => [key, plain(value)]);
    return JSON.stringify({ time: time.toISOString(), level, msg: message, ...Object.fromEntries(entries) });
  }
  const context = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${prettyValue(value)}`)
    .join(' ');
  return `${time.toISOString().slice(11, 19)} ${level.toUpperCase().padEnd(5)} ${message}${context ? `  ${context}` : ''}`;
}

export function createLogger(options: LoggerOptions, bound: LogFields = {}): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level);
  const at =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}): void => {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      options.write(formatRecord(options, level, message, { ...bound, ...fields }));
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => createLogger(options, { ...bound, ...fields }),
  };
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
