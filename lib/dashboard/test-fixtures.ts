// Rows for dashboard tests, written straight through Prisma so the tests do not
// depend on the importer or on Docker.
import { createHash } from 'node:crypto';
import type { Db } from '../db/client.ts';

function sha256(content: string): string {
  return createHash('sha256').update(content).digest('hex');
}

export const SAMPLE_TASK_TOML = `version = "2.0"

[metadata]
difficulty = "easy"
category = "file-operations"
tags = ["bash", "files"]

[verifier]
timeout_sec = 60

[agent]
timeout_sec = 120

[environment]
build_timeout_sec = 300
cpus = 1
memory_mb = 1024
`;

export async function seedEnvironment(
  db: Db,
  options: { name: string; createdAt?: Date; files?: Record<string, string> },
): Promise<string> {
  const files = options.files ?? {
    'task.toml': SAMPLE_TASK_TOML,
    'instruction.md': `# ${options.name}\n\nCreate /app/hello.txt containing "hello".\n`,
    'environment/Dockerfile': 'FROM envolve-base:bookworm\nWORKDIR /app\n',
    'solution/solve.sh': '#!/bin/bash\necho hello > /app/hello.txt\n',
    'tests/test.sh': '#!/bin/bash\ngrep -q hello /app/hello.txt && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt\n',
  };
  const id = sha256(`${options.name}\n${JSON.stringify(files)}`);
  for (const content of Object.values(files)) {
    const hash = sha256(content);
    await db.blob.upsert({
      where: { hash },
      create: { hash, size: Buffer.byteLength(content), content: Buffer.from(content) },
      update: {},
    });
  }
  await db.environmentVersion.create({
    data: {
      id,
      name: options.name,
      source: 'import',
      taskToml: files['task.toml'] ?? '',
      instruction: files['instruction.md'] ?? '',
      createdAt: options.createdAt,
      files: {
        create: Object.entries(files).map(([path, content]) => ({
          path,
          blobHash: sha256(content),
          executable: path.endsWith('.sh'),
        })),
      },
    },
  });
  return id;
}

export async function seedRun(
  db: Db,
  versionId: string,
  run: { kind: 'oracle' | 'invalid-test'; verdict: string; reward: number | null; createdAt?: Date; agentLog?: string },
): Promise<string> {
  const created = await db.validatorRun.create({
    data: {
      versionId,
      kind: run.kind,
      verdict: run.verdict,
      status: run.reward === null ? 'reward-missing' : 'completed',
      reward: run.reward,
      expectedReward: run.kind === 'oracle' ? 1 : 0,
      imageId: `sha256:${sha256(versionId)}`,
      agentExitCode: 0,
      verifierExitCode: 0,
      agentLog: run.agentLog ?? `$ bash /solution/solve.sh\n`,
      containment: JSON.stringify({ networkMode: 'none', oomKilled: false, limits: { cpus: 1, memoryMb: 1024 } }),
      verifierLog: '$ bash /tests/test.sh\n',
      buildDurationMs: 2300,
      agentDurationMs: 410,
      verifierDurationMs: 380,
      totalDurationMs: 3090,
      createdAt: run.createdAt,
    },
  });
  return created.id;
}
