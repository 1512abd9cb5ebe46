// The browser-safe entry of lib/trajectories: only code that runs in the browser as well as on the server (no
// database, Docker or node: imports, here or below). Client components import values from here;
// everything else imports lib/trajectories/index.ts (README, Layers).
export { findMatches, splitMatches } from './search.ts';
