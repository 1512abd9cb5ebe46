// The audit log written as sentences: "reviewer@x approved logs-awk generation 3." The subject
// is a link to its page with a readable name where one is known; the raw before/after stays
// available beside the sentence for whoever needs the detail.
import type { AuditEntry } from './record.ts';

export interface SentencePart {
  text: string;
  href?: string; // the subject's page
}

// What each action did, as a verb phrase before the subject.
const VERBS: Record<string, string> = {
  'generation.approve': 'approved',
  'generation.reject': 'rejected',
  'generation.request-changes': 'requested changes on',
  'generation.undo-approve': 'undid their approval of',
  'generation.undo-reject': 'undid their rejection of',
  'generation.undo-request-changes': 'undid their change request on',
  'generation.restore': 'restored, undoing the decision that had set it aside,',
  'generation.comment': 'commented on',
  'generation.files-viewed': 'marked files viewed on',
  'generation.file-viewed': 'marked a file viewed on',
  'generation.file-unviewed': 'unmarked a viewed file on',
  'missed-issue.file': 'filed the missed issue',
  'missed-issue.convert': 'turned into a rubric item the missed issue',
  'missed-issue.dismiss': 'dismissed the missed issue',
  'missed-issue.send-back': 'sent back to review',
  'rubric.create': 'created the rubric item',
  'rubric.activate': 'activated the rubric item',
  'rubric.deactivate': 'deactivated the rubric item',
  'trajectory.flag': 'flagged as a reward hack',
  'trajectory.unflag': 'lifted the reward-hack flag on',
  'environment.sequence': 'described the sequence of',
  'lineage.gate': 'changed the release gate of',
  'lineage.sandbox-runtime': 'changed the sandbox runtime of',
  'lineage.seed-funnel-override': 'overrode the seed funnel for',
  'calibration.create': 'created the calibration set',
  'calibration.adjudicate': 'adjudicated',
  'calibration.rescore': 're-scored',
  'user.create': 'created the account',
  'api-token.create': 'made an API token for',
  'api-token.revoke': 'revoked an API token of',
  'api-token.withdraw-releases': 'withdrew what the groups of an API token released, a token of',
  'user.role': 'changed the role of',
  'user.deactivate': 'deactivated',
  'user.reactivate': 'reactivated',
  'user.reset-password': 'reset the password of',
  'auth.sign-in-throttled': 'was throttled signing in as',
};

const NOUNS: Record<string, string> = {
  generation: 'generation',
  'missed-issue': 'missed issue',
  'rubric-item': 'rubric item',
  'environment-version': 'version',
  lineage: 'lineage',
  'calibration-set': 'calibration set',
  'calibration-item': 'calibration item',
  user: 'user',
};

const PAGES: Record<string, (id: string) => string> = {
  generation: (id) => `/generations/${id}`,
  'missed-issue': (id) => `/missed-issues/${id}`,
  'rubric-item': (id) => `/rubric/${id}`,
  'environment-version': (id) => `/environments/${id}`,
  lineage: (id) => `/lineages/${id}`,
  'calibration-set': (id) => `/calibration/${id}`,
  user: () => '/admin/users',
};

/** `names` maps "type:id" to a readable name ("logs-awk generation 3"), when the caller knows one. */
export function auditSentence(
  entry: Pick<AuditEntry, 'actorEmail' | 'action' | 'subjectType' | 'subjectId'>,
  names: ReadonlyMap<string, string> = new Map(),
): SentencePart[] {
  const verb = VERBS[entry.action] ?? `did ${entry.action} on`;
  const name = names.get(`${entry.subjectType}:${entry.subjectId}`) ?? `${NOUNS[entry.subjectType] ?? entry.subjectType} ${entry.subjectId.slice(0, 12)}`;
  const page = PAGES[entry.subjectType];
  return [{ text: `${entry.actorEmail} ${verb} ` }, { text: name, href: page?.(entry.subjectId) }, { text: '.' }];
}

export function sentenceText(parts: readonly SentencePart[]): string {
  return parts.map((p) => p.text).join('');
}
