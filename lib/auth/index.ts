// Accounts, roles and permissions, sessions (Better Auth), API tokens and sign-in throttling.
// The public API of lib/auth: other modules import it from here, never from its files (README, Layers).
export { type Actor, assertCan, type PersonActor } from './actor.ts';
export { can, type Role, type Permission, isRole, ROLES, PERMISSIONS } from './roles.ts';
export { withoutSessionTokens } from './auth-responses.ts';
export { type Auth, createAuth } from './better-auth.ts';
export { loadAuthSecret } from './secret.ts';
export { decide, type SessionUser } from './guard.ts';
export { changeUserActive, changeUserRole, resetUserPassword } from './user-admin.ts';
export {
  createUser,
  generatePassword,
  UserNotFoundError,
  listUsers,
  createApiToken,
  findUserByEmail,
  listApiTokens,
  revokeApiToken,
  setPassword,
} from './users.ts';
export { safeRedirectPath } from './safe-redirect.ts';
export { DEFAULT_TOKEN_POLICY, parseTokenPolicies } from './api-tokens.ts';
export { ACCOUNT_DEACTIVATED_MESSAGE } from './password-attempts.ts';
export { createOwnApiToken, revokeOwnApiToken, listOwnApiTokens, TOKEN_NAME_MAX } from './own-api-tokens.ts';
export { seedAccounts, type SeededAccount } from './seed-accounts.ts';
export { type UserSummary } from './users.ts';
