// The database: the Prisma client (SQLite or PostgreSQL) and its types. Migrations and test
// databases have their own entry, lib/db/migrations.ts.
// The public API of lib/db: other modules import it from here, never from its files (README, Layers).
export { type Db, databaseUrl, createDb } from './client.ts';
export { idsWithNameContaining, likeContains } from './name-search.ts';
export {
  Prisma,
  PrismaClient,
  type Generation,
  type Lineage,
  type ValidatorRun,
  type ProbeGroup,
  type MissedIssue,
  type RubricItem,
  type BacktestFinding,
  type Job,
  type Rollout,
  type TrajectoryStep,
  type RubricVerdict,
} from './generated/client.ts';
export { providerOf } from './provider.ts';
