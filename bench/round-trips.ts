// One engine round trip, two ways, in one running container of the trial's image and runtime: a
// `docker exec` of `true` (create, start with the attach, inspect for the exit code: how every
// trial phase ran before) and one script of `true` through the supervisor's session (how a trial's
// steps run now, lib/sandbox/session.ts). Interleaved, medians of `runs`.
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { NO_CONTAINER_LOG, Session, SUPERVISED_MAIN_PROCESS } from '../lib/sandbox/index.ts';
import type { SandboxRuntime } from '../lib/sandbox/index.ts';
import { summarize, timed, type Summary } from './stats.ts';

export interface RoundTrips {
  execMs: Summary;
  sessionMs: Summary;
}

async function execTrue(container: Docker.Container): Promise<void> {
  const exec = await container.exec({ Cmd: ['true'], AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const sink = new PassThrough().resume();
  container.modem.demuxStream(stream, sink, sink);
  await new Promise((resolve) => stream.on('end', resolve).on('close', resolve));
  while ((await exec.inspect()).Running) await new Promise((resolve) => setTimeout(resolve, 1));
}

async function sessionTrue(session: Session): Promise<void> {
  session.run('true; say done');
  const line = await session.next(30_000);
  if (line?.name !== 'done') throw new Error(`the session answered ${JSON.stringify(line)}`);
  await session.next(30_000); // the supervisor's end line
}

export async function measureRoundTrips(docker: Docker, imageId: string, runtime: SandboxRuntime, runs: number): Promise<RoundTrips> {
  const container = await docker.createContainer({
    Image: imageId,
    ...SUPERVISED_MAIN_PROCESS,
    User: '0',
    HostConfig: { NetworkMode: 'none', Runtime: runtime, LogConfig: NO_CONTAINER_LOG },
    Labels: { 'envolve.bench': '1' },
  });
  try {
    await container.start();
    const session = await Session.open(container);
    const exec: number[] = [];
    const viaSession: number[] = [];
    await execTrue(container);
    await sessionTrue(session);
    for (let i = 0; i < runs; i++) {
      exec.push(await timed(() => execTrue(container)));
      viaSession.push(await timed(() => sessionTrue(session)));
    }
    session.close();
    return { execMs: summarize(exec), sessionMs: summarize(viaSession) };
  } finally {
    await container.remove({ force: true });
  }
}
