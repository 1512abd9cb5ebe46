// The fixture collection of varied Harbor tasks (test/fixtures/harbor-collection): what import
// refuses, what it warns about, the summary line, the folder that is not a task, and how the
// environment detail (`env show --json`) keeps task.toml's types.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEnvironment } from '../../lib/dashboard/environments.ts';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { importCollection, type ImportReport } from '../../lib/env/import.ts';

export const HARBOR_COLLECTION = join(import.meta.dirname, '../fixtures/harbor-collection');

let testDb: TestDb;
let report: ImportReport;
const byName = (name: string) => report.results.find((r) => r.name === name)!;

beforeAll(async () => {
  testDb = await createTestDb();
  report = await importCollection(testDb.db, HARBOR_COLLECTION);
});
afterAll(() => testDb.cleanup());

describe('importing the Harbor fixture collection', () => {
  it('imports 14, refuses 3, and reports the folder that is not a task', () => {
    expect(report.summary).toBe('14 imported, 3 refused, 1 folder is not a task');
    expect(report.notTasks).toEqual(['10-not-a-task']);
    expect(report.results.filter((r) => !r.ok).map((r) => [r.name, r.errors])).toEqual([
      ['11-no-task-toml', ['task.toml: required file is missing']],
      ['12-invalid-toml', [expect.stringMatching(/^task\.toml: invalid TOML at line 1/)]],
      ['13-empty-instruction', ['instruction.md: is empty']],
    ]);
  });

  it('warns about what will break later, task by task', () => {
    const warned = Object.fromEntries(report.results.filter((r) => r.ok && r.warnings.length).map((r) => [r.name, r.warnings]));
    expect(Object.keys(warned).sort()).toEqual([
      '02-crlf-scripts',
      '03-shebang-late',
      '04-allow-internet',
      '05-compose-sidecar',
      '08-missing-copy-source',
      '14-no-oracle',
      '18-agent-internet',
    ]);
    expect(byName('02-crlf-scripts').warnings[0]).toMatch(/^tests\/test\.sh: has CRLF line endings/);
    expect(byName('03-shebang-late').warnings).toEqual(['solution/solve.sh: the shebang is on line 3, not at the very start: the kernel ignores it']);
    expect(byName('04-allow-internet').warnings[0]).toMatch(/^task\.toml: asks for internet \(\[environment\] allow_internet = true\)/);
    expect(byName('05-compose-sidecar').warnings[0]).toMatch(/^environment\/docker-compose\.yaml: a multi-container task/);
    expect(byName('08-missing-copy-source').warnings).toEqual([
      "environment/Dockerfile: COPY source 'data/greeting.txt' is not in environment/: the build will fail",
    ]);
  });

  it("keeps TOML types and the task author's difficulty apart from Envolve's", async () => {
    const detail = (await getEnvironment(testDb.db, byName('16-harbor-v2-extras').versionId!))!;
    expect(detail.taskConfig).toMatchObject({
      version: '2.0',
      metadata: { difficulty: 'hard', tags: ['shell', 'files'], estimated_duration_sec: 120.5, expert_time_estimate_min: 3 },
      environment: { workdir: '/app', cpus: 1, memory_mb: 1024 },
    });
    expect(detail.taskDifficulty).toBe('hard');
    expect(detail.difficulty).toBeNull(); // Envolve's, computed from a sequence it does not know yet
    expect(detail.internetRequested).toEqual([]);
    const internet = (await getEnvironment(testDb.db, byName('18-agent-internet').versionId!))!;
    expect(internet.internetRequested).toEqual(['agent']);
  });
});
