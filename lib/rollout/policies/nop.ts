// Does nothing: every task must score 0 under it (the invalid-test convention).
import type { Policy } from '../types.ts';

export class NopPolicy implements Policy {
  readonly name = 'nop';
  readonly version = '1';
  readonly simulated = false;

  async act(): Promise<void> {}
}
