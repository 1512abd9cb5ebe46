// The audit log: who did what to which thing, recorded in the caller's transaction, and its sentences.
// The public API of lib/audit: other modules import it from here, never from its files (README, Layers).
export { recordAudit, auditDecision, type AuditActor, recordSessionAudit, auditFacets, listAudit } from './record.ts';
export { auditSentence } from './sentence.ts';
export { subjectNames } from './subject-names.ts';
export { type AuditEntry } from './record.ts';
