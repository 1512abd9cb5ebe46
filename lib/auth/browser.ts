// The browser-safe entry of lib/auth: only code that runs in the browser as well as on the server (no
// database, Docker or node: imports, here or below). Client components import values from here;
// everything else imports lib/auth/index.ts (README, Layers).
export { can, isRole, PERMISSIONS, ROLES, type Permission, type Role } from './roles.ts';
