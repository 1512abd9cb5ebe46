// better-auth's own endpoints (sign-in, sign-out, session): see app/_server/auth-endpoint.ts.
import { handleAuthRequest } from '@/app/_server/auth-endpoint.ts';
import { publicRoute } from '@/app/_server/route.ts';

const handle = publicRoute(handleAuthRequest);

export { handle as GET, handle as POST };
