// Who is acting: a signed-in person (a route, a server action), or the command line, which acts
// as the operator's OS account (id null). The app checks the permission before it calls lib;
// lib checks it again with assertCan, so no caller can mutate without the role for it.
import { ForbiddenError } from '../errors/index.ts';
import { can, type Permission } from './roles.ts';

export interface Actor {
  id: string | null;
  email: string;
  role: string;
}

// Reviews, comments and viewed marks are a person's: they name a user row.
export type PersonActor = Actor & { id: string };

export function assertCan(actor: Actor, permission: Permission): void {
  if (!can(actor.role, permission)) throw new ForbiddenError(`${actor.email} (${actor.role}) may not ${permission}`);
}
