// Where the end-to-end run keeps its state: a database of its own under the
// gitignored .envolve/, never the developer's data/envolve.db.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
// ENVOLVE_E2E_DIR lets two runs on one checkout keep apart (with ENVOLVE_E2E_PORT and ENVOLVE_NEXT_DIST_DIR).
export const E2E_DIR = process.env.ENVOLVE_E2E_DIR ? path.resolve(process.env.ENVOLVE_E2E_DIR) : path.join(REPO_ROOT, '.envolve', 'e2e');
export const E2E_DATABASE_URL = `file:${path.join(E2E_DIR, 'envolve.db')}`;
// Written by global-setup: what it imported, for the specs to look for.
export const SEEDED_FILE = path.join(E2E_DIR, 'seeded.json');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'e2e', 'screenshots');

// The example task the run imports and validates in real containers.
export const E2E_TASK = 'access-log-report';

export interface Seeded {
  name: string;
  versionId: string;
}
