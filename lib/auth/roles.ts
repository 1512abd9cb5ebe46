// Roles and what each may do. Every mutating route and server action checks a permission on
// the server through this table; the UI only hides what the server would refuse anyway.
export const ROLES = ['admin', 'lead', 'reviewer', 'annotator', 'trainer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  // Not annotators: the dashboard shows verifier rewards and probe pass rates, and they label blind.
  'dashboard.read': ['admin', 'lead', 'reviewer'],
  'generation.decide': ['admin', 'lead', 'reviewer'], // approve, reject, request changes
  'generation.comment': ['admin', 'lead', 'reviewer'],
  // A candidate no validator could judge goes to review on a lead's written justification.
  'generation.accept-held': ['admin', 'lead'],
  'missed-issue.file': ['admin', 'lead', 'reviewer'],
  'rubric.manage': ['admin', 'lead'], // turn missed issues into items, activate, backtest
  'audit.read': ['admin', 'lead'],
  'lineage.configure': ['admin', 'lead'],
  'environment.validate': ['admin', 'lead', 'reviewer'],
  'calibration.label': ['admin', 'lead', 'annotator'],
  'calibration.manage': ['admin', 'lead'], // create sets, adjudicate, re-score, read metrics
  // Rewards are verifier verdicts: annotators label blind, so they never read trajectories or probes.
  'trajectories.read': ['admin', 'lead', 'reviewer'],
  'trajectory.flag': ['admin', 'lead', 'reviewer'], // flag a reward hack: compromises the version
  'drift.read': ['admin', 'lead', 'reviewer'],
  'scheduler.manage': ['admin', 'lead'], // probe, release, held-out sets
  'metrics.read': ['admin', 'lead', 'trainer'], // the Prometheus endpoint: a scraper holds a trainer (machine) token
  'users.manage': ['admin'],
  'trainer.api': ['admin', 'trainer'],
  // Making and revoking one's own API tokens at /tokens: the roles that use the trainer API.
  'api-tokens.own': ['admin', 'trainer'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: string, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly string[]).includes(role);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
