// The evolution's own failures, in the domain hierarchy (lib/errors): the one "no such generation"
// that review, missed issues and every other module asking about a generation throw.
import { NotFoundError } from '../errors/index.ts';

export class GenerationNotFoundError extends NotFoundError {
  constructor(readonly generationId: string) {
    super(`generation ${generationId} not found`, { details: { generationId } });
  }
}
