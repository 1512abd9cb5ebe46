// The browser-safe entry of lib/missed-issues: only code that runs in the browser as well as on the server (no
// database, Docker or node: imports, here or below). Client components import values from here;
// everything else imports lib/missed-issues/index.ts (README, Layers).
export { CHECK_MAX_BYTES, SEVERITIES, VALIDATOR_KINDS, type Severity, type ValidatorKind } from './schema.ts';
