// Runs in the browser before the app hydrates. Zod compiles object parsers with `new Function`
// unless told not to, and probes for it first; under the dashboard's Content-Security-Policy (no
// 'unsafe-eval') that probe is reported as a violation even though Zod recovers. Interpreted
// parsing is plenty for the few query strings the browser validates.
import { z } from 'zod';

z.config({ jitless: true });
