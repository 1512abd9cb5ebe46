// Validation of what route handlers and pages receive from the URL.
import { z } from 'zod';
import { CONTROL_CHARACTERS_MESSAGE, hasNoControlCharacters } from '../text/index.ts';

// Environment versions are named by the sha256 of their files.
export const environmentIdSchema = z.string().regex(/^[0-9a-f]{64}$/, 'an environment version id is 64 lowercase hex characters (sha256)');

export const validatorRunIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a validator run id is 1–64 letters, digits, "_" or "-"');

export const logPhaseSchema = z.enum(['agent', 'verifier'], {
  error: 'phase must be "agent" or "verifier"',
});

export const environmentSearchSchema = z.object({
  q: z.string().trim().max(200, 'q is at most 200 characters').refine(hasNoControlCharacters, CONTROL_CHARACTERS_MESSAGE).optional(),
});
