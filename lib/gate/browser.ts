// The browser-safe entry of lib/gate: only code that runs in the browser as well as on the server (no
// database, Docker or node: imports, here or below). Client components import values from here;
// everything else imports lib/gate/index.ts (README, Layers).
export { SIMULATED_POLICY } from './gate.ts';
