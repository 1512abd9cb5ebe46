// Environment versions in the database. A version is immutable and its id is
// the content hash of its files, so storing the same content again is a no-op
// that returns the same id. File contents live once each in the Blob table.

import type { Prisma, PrismaClient } from '../db/index.ts';
import { bundleFile, type TaskBundle } from '../bundle/index.ts';
import { contentHash, hashedFiles, sha256Hex } from './content-hash.ts';
import type { ImportLimits } from './import-limits.ts';
import { comparePaths } from './paths.ts';
import { formatProblem, type TaskProblem } from './problems.ts';
import { validateBundle } from './validate-bundle.ts';
import { InvalidInputError, NotFoundError } from '../errors/index.ts';

export type EnvironmentMetadata = Record<string, unknown>;

export interface StoreOptions {
  source: string; // "import" | "evolution"
  metadata?: EnvironmentMetadata;
  limits?: Partial<ImportLimits>;
}

export interface StoredVersion {
  id: string;
  name: string;
  source: string;
  metadata: EnvironmentMetadata;
  createdAt: Date;
  fileCount: number;
}

export class InvalidBundleError extends InvalidInputError {
  constructor(readonly problems: TaskProblem[]) {
    super(`invalid task bundle: ${problems.map(formatProblem).join('; ')}`, { code: 'invalid_bundle', details: { problems } });
  }
}

// Concurrent stores of overlapping content can race on a blob's primary key;
// the loser retries and then finds the row already there.
const STORE_ATTEMPTS = 3;

// A version that already exists keeps its first name and metadata: versions
// are immutable, and an identical task reached again is the same environment.
export async function storeBundle(db: PrismaClient, bundle: TaskBundle, options: StoreOptions): Promise<string> {
  const errors = validateBundle(bundle, options.limits).filter((p) => p.severity === 'error');
  if (errors.length > 0) throw new InvalidBundleError(errors);

  const id = contentHash(bundle);
  for (let attempt = 1; ; attempt++) {
    try {
      await db.$transaction((tx) => insertVersion(tx, id, bundle, options), { maxWait: 10_000, timeout: 120_000 });
      return id;
    } catch (err) {
      if (attempt >= STORE_ATTEMPTS || !isUniqueViolation(err)) throw err;
    }
  }
}

async function insertVersion(tx: Prisma.TransactionClient, id: string, bundle: TaskBundle, options: StoreOptions): Promise<void> {
  if (await tx.environmentVersion.findUnique({ where: { id }, select: { id: true } })) return;

  const files = hashedFiles(bundle).map((f) => ({ ...f, hash: sha256Hex(f.content) }));
  const blobs = new Map(files.map((f) => [f.hash, f.content]));
  const present = await tx.blob.findMany({ where: { hash: { in: [...blobs.keys()] } }, select: { hash: true } });
  for (const { hash } of present) blobs.delete(hash);
  for (const [hash, content] of blobs) {
    await tx.blob.create({ data: { hash, size: content.length, content: new Uint8Array(content) } });
  }

  await tx.environmentVersion.create({
    data: {
      id,
      name: bundle.name,
      source: options.source,
      taskToml: requiredText(bundle, 'task.toml'),
      instruction: requiredText(bundle, 'instruction.md'),
      metadata: JSON.stringify(options.metadata ?? {}),
      files: {
        createMany: { data: files.map((f) => ({ path: f.path, blobHash: f.hash, executable: f.executable })) },
      },
    },
  });
}

export async function loadBundle(db: PrismaClient, versionId: string): Promise<TaskBundle> {
  const version = await db.environmentVersion.findUnique({
    where: { id: versionId },
    select: { name: true, files: { select: { path: true, executable: true, blob: { select: { content: true } } } } },
  });
  if (!version) throw new Error(`environment version ${versionId} not found`);
  const files = version.files
    .map((f) => ({ path: f.path, executable: f.executable, content: Buffer.from(f.blob.content) }))
    .sort((a, b) => comparePaths(a.path, b.path));
  const bundle = { name: version.name, files };
  // The id is a promise about the content; a mismatch means the rows were altered.
  const actual = contentHash(bundle);
  if (actual !== versionId) throw new Error(`environment version ${versionId} is corrupt: its stored files hash to ${actual}`);
  return bundle;
}

export async function getVersion(db: PrismaClient, versionId: string): Promise<StoredVersion | null> {
  const row = await db.environmentVersion.findUnique({ where: { id: versionId }, select: versionSummary });
  return row ? toStoredVersion(row) : null;
}

export async function listVersions(db: PrismaClient, filter: { name?: string; source?: string; limit?: number } = {}): Promise<StoredVersion[]> {
  const rows = await db.environmentVersion.findMany({
    where: { name: filter.name, source: filter.source },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: filter.limit,
    select: versionSummary,
  });
  return rows.map(toStoredVersion);
}

// Lets people type a short id, as with git: an exact id or a unique prefix.
export async function resolveVersionId(db: PrismaClient, idOrPrefix: string): Promise<string> {
  const wanted = idOrPrefix.trim().toLowerCase();
  if (!/^[0-9a-f]{4,64}$/.test(wanted)) throw new InvalidInputError(`'${idOrPrefix}' is not a version id (4 to 64 hex characters)`);
  const matches = await db.environmentVersion.findMany({ where: { id: { startsWith: wanted } }, select: { id: true }, take: 2 });
  if (matches.length === 0) throw new NotFoundError(`no environment version matches '${idOrPrefix}'`);
  if (matches.length > 1) throw new InvalidInputError(`'${idOrPrefix}' matches several environment versions; give more characters`);
  return matches[0]!.id;
}

const versionSummary = {
  id: true,
  name: true,
  source: true,
  metadata: true,
  createdAt: true,
  _count: { select: { files: true } },
} as const;

function toStoredVersion(row: { id: string; name: string; source: string; metadata: string; createdAt: Date; _count: { files: number } }): StoredVersion {
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    metadata: parseMetadata(row.metadata),
    createdAt: row.createdAt,
    fileCount: row._count.files,
  };
}

function parseMetadata(json: string): EnvironmentMetadata {
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as EnvironmentMetadata) : {};
}

function requiredText(bundle: TaskBundle, path: string): string {
  const file = bundleFile(bundle, path);
  if (!file) throw new InvalidBundleError([{ severity: 'error', path, message: 'required file is missing' }]);
  return file.content.toString('utf8');
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'P2002';
}
