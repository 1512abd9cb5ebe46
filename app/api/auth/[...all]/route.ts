// better-auth's own endpoints (sign-in, sign-out, session). It checks the Origin of every
// mutating request against its trusted origins itself.
import { getAuth } from '@/app/_server/auth.ts';

async function handle(request: Request): Promise<Response> {
  return (await getAuth()).handler(request);
}

export { handle as GET, handle as POST };
