// Runs a host command, forwarding its output line by line to a progress
// callback, and fails with the tail of that output when it exits non-zero.
import { spawn, type SpawnOptions } from 'node:child_process';
import { logger } from '../log/index.ts';

export type Progress = (line: string) => void;

export const logProgress: Progress = (line) => logger().info(line);

export function runCommand(cmd: string, args: string[], progress: Progress, opts: SpawnOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        progress(line);
        tail.push(line);
        if (tail.length > 30) tail.shift();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${tail.join('\n')}`));
    });
  });
}
