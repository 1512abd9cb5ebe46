// The browser-safe entry of lib/queue: only code that runs in the browser as well as on the server (no
// database, Docker or node: imports, here or below). Client components import values from here;
// everything else imports lib/queue/index.ts (README, Layers).
export { ACTIVE_JOB_STATES, isActiveJobState, JOB_STATES, JobState } from './types.ts';
