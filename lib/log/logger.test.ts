import { describe, expect, it } from 'vitest';
import { createLogger, type LoggerOptions } from './logger.ts';

const NOW = new Date('2026-12-01T17:40:05.123Z');

function capture(options: Partial<LoggerOptions> = {}) {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', format: 'json', write: (line) => lines.push(line), now: () => NOW, ...options });
  return { log, lines };
}

describe('createLogger', () => {
  it('writes one JSON object per record, with its level, message and fields', () => {
    const { log, lines } = capture();
    log.info('probe finished', { jobId: 'job-1', versionId: 'sha256:ab', passes: 6 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({ time: NOW.toISOString(), level: 'info', msg: 'probe finished', jobId: 'job-1', versionId: 'sha256:ab', passes: 6 });
  });

  it('drops records below its level', () => {
    const { log, lines } = capture({ level: 'warn' });
    log.debug('noise');
    log.info('still noise');
    log.warn('disk almost full');
    log.error('disk full');
    expect(lines.map((line) => JSON.parse(line).level)).toEqual(['warn', 'error']);
  });

  it("carries a child's fields on every record, a record's own fields winning", () => {
    const { log, lines } = capture();
    const job = log.child({ jobId: 'job-7', lineageId: 'lin-1' });
    job.info('started');
    job.child({ versionId: 'v-2' }).info('validated', { lineageId: 'lin-2' });
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'started', jobId: 'job-7', lineageId: 'lin-1' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ msg: 'validated', jobId: 'job-7', lineageId: 'lin-2', versionId: 'v-2' });
  });

  it("writes a key a record sets again once, with the record's value", () => {
    const { log, lines } = capture();
    log.child({ lineageId: 'lin-1' }).info('moved', { lineageId: 'lin-2' });
    expect(lines[0]!.match(/"lineageId"/g)).toHaveLength(1);
    expect(JSON.parse(lines[0]!).lineageId).toBe('lin-2');
  });

  it('writes a record whose fields refer to themselves instead of throwing', () => {
    const { log, lines } = capture();
    const job: Record<string, unknown> = { id: 'job-3' };
    job.self = job;
    log.info('looped', { job });
    expect(JSON.parse(lines[0]!).job.id).toBe('job-3');
  });

  it('records an error under any key with its name, message and stack', () => {
    const { log, lines } = capture();
    log.warn('retrying', { cause: new TypeError('bad input') });
    const record = JSON.parse(lines[0]!);
    expect(record.cause).toMatchObject({ name: 'TypeError', message: 'bad input' });
    expect(record.cause.stack).toContain('bad input');
  });

  it('records an error with its message and stack, not as {}', () => {
    const { log, lines } = capture();
    log.error('claiming a job failed', { err: new Error('connection reset') });
    const record = JSON.parse(lines[0]!);
    expect(record.err).toMatchObject({ name: 'Error', message: 'connection reset' });
    expect(record.err.stack).toContain('connection reset');
  });

  it('prints a readable line in a terminal', () => {
    const { log, lines } = capture({ format: 'pretty' });
    log.warn('reaper failed', { jobId: 'job-1', err: new Error('engine gone'), note: 'two words' });
    expect(lines[0]).toBe('17:40:05 WARN  reaper failed  jobId=job-1 err="engine gone" note="two words"');
  });
});
