// The work waiting for one person, by what their role may do: the home page's counts. Each
// count is read from the same tables the page it links to lists, so the numbers agree.
import { can, type Role } from '../auth/index.ts';
import { listSetsForAnnotator, peekQueue, SetState } from '../calibration/index.ts';
import type { Db } from '../db/index.ts';
import { DEFAULT_ALERT_THRESHOLDS, type DriftAlert, driftFilterFromSearchParams, loadDriftView } from '../drift/index.ts';
import { nextForReviewer, type NextInQueue } from '../review/index.ts';
import { GenerationState } from '../states/index.ts';
import { openMissedIssueCount } from '../missed-issues/index.ts';

export interface ReviewWork {
  awaiting: number; // generations awaiting review, by anyone
  next: NextInQueue | null; // the first one waiting for this reviewer
  openMissedIssues: number;
}

export interface LabellingWork {
  sets: { id: string; name: string; remaining: number }[]; // sets still labelling, with items left for this person
  remaining: number;
}

export interface LeadWork {
  alerts: DriftAlert[];
  compromisedVersions: number; // flagged as reward hacks: no longer served
  missedIssuesToConvert: number;
}

export interface HomeWork {
  review: ReviewWork | null;
  labelling: LabellingWork | null;
  lead: LeadWork | null;
  trainerApi: boolean; // the role works through the trainer API, not the dashboard
}

export async function homeWork(db: Db, user: { id: string; role: Role }, now = new Date()): Promise<HomeWork> {
  const [review, labelling, lead] = await Promise.all([
    can(user.role, 'generation.decide') ? reviewWork(db, user.id) : null,
    can(user.role, 'calibration.label') ? labellingWork(db, user.id, now) : null,
    can(user.role, 'rubric.manage') ? leadWork(db, now) : null,
  ]);
  return { review, labelling, lead, trainerApi: can(user.role, 'trainer.api') };
}

async function reviewWork(db: Db, userId: string): Promise<ReviewWork> {
  const [awaiting, next, openMissedIssues] = await Promise.all([
    db.generation.count({ where: { state: GenerationState.awaitingReview } }),
    nextForReviewer(db, userId),
    openMissedIssueCount(db),
  ]);
  return { awaiting, next, openMissedIssues };
}

async function labellingWork(db: Db, userId: string, now: Date): Promise<LabellingWork> {
  const open = (await listSetsForAnnotator(db, userId)).filter((s) => s.state === SetState.labelling);
  const queues = await Promise.all(open.map((s) => peekQueue(db, s.id, userId, now)));
  const sets = open.map((s, i) => ({ id: s.id, name: s.name, remaining: queues[i]!.remaining })).filter((s) => s.remaining > 0);
  return { sets, remaining: sets.reduce((sum, s) => sum + s.remaining, 0) };
}

async function leadWork(db: Db, now: Date): Promise<LeadWork> {
  const [drift, compromisedVersions, missedIssuesToConvert] = await Promise.all([
    loadDriftView(db, driftFilterFromSearchParams({}), DEFAULT_ALERT_THRESHOLDS, now),
    db.environmentVersion.count({ where: { compromisedAt: { not: null } } }),
    openMissedIssueCount(db),
  ]);
  return { alerts: drift.alerts, compromisedVersions, missedIssuesToConvert };
}
