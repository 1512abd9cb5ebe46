// Who is acting. The app checks the permission before it calls lib; lib checks it again so
// that no caller (a route, a server action, a job) can mutate without the role for it.
import { can, type Permission } from '../auth/roles.ts';

export interface Actor {
  id: string | null; // null for the command line, which acts as the operator's OS account
  email: string;
  role: string;
}

export class ForbiddenError extends Error {
  constructor(actor: Actor, permission: Permission) {
    super(`${actor.email} (${actor.role}) may not ${permission}`);
    this.name = 'ForbiddenError';
  }
}

export function assertCan(actor: Actor, permission: Permission): void {
  if (!can(actor.role, permission)) throw new ForbiddenError(actor, permission);
}

// A mutation asked of something in the wrong state (dismissing a converted issue, ...).
export class ConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}
