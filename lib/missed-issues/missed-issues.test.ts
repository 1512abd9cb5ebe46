// Filing, conversion, activation and dismissal against a real database (no Docker).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { makeUser } from '../../test/missed-issues/users.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { activeRubric, setItemActive } from '../rubric/index.ts';
import {
  CHECK_MAX_BYTES,
  convertMissedIssue,
  dismissMissedIssue,
  draftFromIssue,
  DuplicateMissedIssueError,
  fileMissedIssue,
  listMissedIssues,
  slugify,
} from './index.ts';
import type { Actor } from '../auth/actor.ts';
import { ConflictError, ForbiddenError } from '../errors/index.ts';

let testDb: TestDb;
let reviewer: Actor;
let lead: Actor;
let annotator: Actor;
let generationId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  const { db } = testDb;
  [reviewer, lead, annotator] = await Promise.all([makeUser(db, 'reviewer'), makeUser(db, 'lead'), makeUser(db, 'annotator')]);
  const lineage = await db.lineage.create({ data: { name: 'l', seedVersionId: 'seed', axisPolicy: '{}', effort: 'low', synthesiser: 'procedural', seed: 1 } });
  const generation = await db.generation.create({
    data: { lineageId: lineage.id, number: 1, parentVersionId: 'seed', axis: 'length', effort: 'low', state: 'approved' },
  });
  generationId = generation.id;
});
afterAll(() => testDb.cleanup());

const valid = { title: 'Solution prints the answer', description: 'solve.sh echoes a literal.', severity: 'high', validatorKind: 'rubric' } as const;
// Each test's filing says something new, so none is refused as a copy of an earlier one.
let filed = 0;
const fresh = () => ({ ...valid, description: `${valid.description} (report ${++filed})` });

describe('filing', () => {
  it('validates every field and stores optional parts only when given', async () => {
    const issue = await fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), check: '  ', question: 'Does solve.sh compute it?' });
    expect(issue).toMatchObject({ state: 'open', check: null, question: 'Does solve.sh compute it?', reporterId: reviewer.id });
    await expect(fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), title: 'x' })).rejects.toThrow(ZodError);
    await expect(fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), severity: 'urgent' as 'low' })).rejects.toThrow(ZodError);
    await expect(fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), validatorKind: 'human' as 'rubric' })).rejects.toThrow(ZodError);
    await expect(fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), check: 'x'.repeat(CHECK_MAX_BYTES + 1) })).rejects.toThrow(/longer than/);
    await expect(fileMissedIssue(testDb.db, reviewer, 'no-such-generation', valid)).rejects.toThrow(/not found/);
  });

  it('stores a check typed in a browser (CRLF line ends) with LF line ends, as bash needs', async () => {
    const issue = await fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), check: 'n=$(ls | wc -l)\r\ntest "$n" -ge 1\r\n' });
    expect(issue.check).toBe('n=$(ls | wc -l)\ntest "$n" -ge 1\n');
  });

  it('refuses a role without missed-issue.file, and audits every filing', async () => {
    await expect(fileMissedIssue(testDb.db, annotator, generationId, valid)).rejects.toThrow(ForbiddenError);
    const issue = await fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), check: 'true' });
    const audit = await testDb.db.auditEvent.findFirstOrThrow({ where: { subjectId: issue.id } });
    expect(audit).toMatchObject({ action: 'missed-issue.file', actorId: reviewer.id, actorEmail: reviewer.email });
  });
});

describe('conversion and activation', () => {
  it('creates an inactive missed-issue draft at version 1 with a unique key; activation puts it in the global rubric', async () => {
    const issue = await fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), check: 'test -f solution/solve.sh' });
    await expect(convertMissedIssue(testDb.db, reviewer, issue.id, { ...draftFromIssue(issue) })).rejects.toThrow(ForbiddenError);
    const { item, issue: converted } = await convertMissedIssue(testDb.db, lead, issue.id, { ...draftFromIssue(issue), key: undefined });
    expect(item).toMatchObject({
      key: 'solution-prints-the-answer',
      version: 1,
      active: false,
      source: 'missed-issue',
      scope: 'global',
      appliesTo: 'environment',
      check: 'test -f solution/solve.sh',
    });
    expect(converted).toMatchObject({ state: 'converted', rubricItemId: item.id });
    const keys = async () => (await activeRubric(testDb.db, { appliesTo: 'environment' })).map((i) => i.key);
    expect(await keys()).not.toContain(item.key);
    await setItemActive(testDb.db, lead, item.id, true);
    expect(await keys()).toContain(item.key);
    // Global: in force for a lineage's generations too.
    expect((await activeRubric(testDb.db, { lineageId: 'any', appliesTo: 'environment' })).map((i) => i.key)).toContain(item.key);
    await expect(convertMissedIssue(testDb.db, lead, issue.id, draftFromIssue(issue))).rejects.toThrow(ConflictError);

    // The same title again gets a key of its own, and plan-review misses become plan items.
    const again = await fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), validatorKind: 'plan-review', question: 'Is the plan sound?' });
    const second = await convertMissedIssue(testDb.db, lead, again.id, { ...draftFromIssue(again), key: undefined, activate: true });
    expect(second.item).toMatchObject({ key: 'solution-prints-the-answer-2', appliesTo: 'plan', active: true });
  });

  it('needs a check or a question, and lets the lead edit them', async () => {
    const issue = await fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), title: 'Nothing to check' });
    await expect(convertMissedIssue(testDb.db, lead, issue.id, { ...draftFromIssue(issue) })).rejects.toThrow(/executable check or a question/);
    const { item } = await convertMissedIssue(testDb.db, lead, issue.id, {
      ...draftFromIssue(issue),
      check: 'grep -q reward tests/test.sh',
      key: 'reward-written',
    });
    expect(item).toMatchObject({ key: 'reward-written', check: 'grep -q reward tests/test.sh', active: false });
  });

  it('dismisses an open issue once, lists open issues first', async () => {
    const issue = await fileMissedIssue(testDb.db, reviewer, generationId, { ...fresh(), title: 'Not a problem' });
    await expect(dismissMissedIssue(testDb.db, reviewer, issue.id)).rejects.toThrow(ForbiddenError);
    expect((await dismissMissedIssue(testDb.db, lead, issue.id)).state).toBe('dismissed');
    await expect(dismissMissedIssue(testDb.db, lead, issue.id)).rejects.toThrow(ConflictError);
    const states = (await listMissedIssues(testDb.db)).map((i) => i.state);
    expect(states.indexOf('open')).toBe(0);
    expect(states.lastIndexOf('open')).toBeLessThan(states.indexOf('converted'));
    expect((await listMissedIssues(testDb.db, { state: 'dismissed' })).map((i) => i.title)).toEqual(['Not a problem']);
  });
});

describe('a second filing of the same report', () => {
  it('is refused with a conflict naming the first while it is open, and accepted again once it is closed', async () => {
    const report = fresh();
    const first = await fileMissedIssue(testDb.db, reviewer, generationId, report);
    // Whitespace the form trims is the same report.
    const again = fileMissedIssue(testDb.db, reviewer, generationId, { ...report, title: ` ${report.title} `, description: `${report.description}\n` });
    await expect(again).rejects.toThrow(DuplicateMissedIssueError);
    await expect(again).rejects.toMatchObject({ code: 'duplicate_missed_issue', details: { missedIssueId: first.id } });
    await expect(again).rejects.toThrow(first.id);
    expect(await testDb.db.missedIssue.count({ where: { description: report.description } })).toBe(1);

    // Not a copy: another reviewer, another description, another generation.
    const second = await testDb.db.user.create({
      data: { id: 'user-reviewer-2', name: 'second reviewer', email: 'reviewer-2@test.envolve', role: 'reviewer' },
    });
    const otherReviewer: Actor = { id: second.id, email: second.email, role: second.role };
    await expect(fileMissedIssue(testDb.db, otherReviewer, generationId, report)).resolves.toMatchObject({ reporterId: otherReviewer.id });
    await expect(fileMissedIssue(testDb.db, reviewer, generationId, { ...report, description: `${report.description} More.` })).resolves.toBeTruthy();
    const otherGeneration = await testDb.db.generation.create({
      data: {
        lineageId: (await testDb.db.generation.findUniqueOrThrow({ where: { id: generationId } })).lineageId,
        number: 2,
        parentVersionId: 'seed',
        axis: 'length',
        effort: 'low',
        state: 'approved',
      },
    });
    await expect(fileMissedIssue(testDb.db, reviewer, otherGeneration.id, report)).resolves.toBeTruthy();

    // Once the first is dismissed, the same report may be filed anew.
    await dismissMissedIssue(testDb.db, lead, first.id);
    await expect(fileMissedIssue(testDb.db, reviewer, generationId, report)).resolves.toMatchObject({ state: 'open' });
  });
});

describe('rubric keys from titles', () => {
  it('cut a long title at the last whole word within 60 characters', () => {
    const title = 'The reference solution reads the expected output from its own answer file instead of computing it';
    const key = slugify(title);
    expect(key).toBe('the-reference-solution-reads-the-expected-output-from-its');
    expect(key.length).toBeLessThanOrEqual(60);
    // Exactly at a word's end: nothing is lost; one word past the limit is cut hard.
    expect(slugify('a'.repeat(30) + ' ' + 'b'.repeat(29) + ' c')).toBe(`${'a'.repeat(30)}-${'b'.repeat(29)}`);
    expect(slugify('x'.repeat(70))).toBe('x'.repeat(60));
    expect(slugify('Ünïcode — and punctuation!')).toBe('unicode-and-punctuation');
    expect(slugify('!!!')).toBe('missed-issue');
  });
});
