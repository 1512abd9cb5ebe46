// What a password must be: long enough, and not guessable. Strength is zxcvbn's estimate (the
// common-password lists, dictionary words, keyboard walks, repeats like "aaaaaaaaaaaa" and
// sequences), with the account's own email and name counted as known to an attacker.
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;
/** zxcvbn's 0–4 scale; 3 is "safely unguessable: moderate protection from offline attacks". */
export const MIN_PASSWORD_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return estimator;
}

/** Why the password is refused, or null when it may be used. */
export function passwordProblem(password: string, knownToAttacker: string[] = []): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `the password needs at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `the password may have at most ${MAX_PASSWORD_LENGTH} characters`;
  const inputs = knownToAttacker.flatMap((s) => [s, ...s.split(/[^\p{L}\p{N}]+/u)]).filter((s) => s.length >= 3);
  const result = zxcvbn().check(password, inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const hint = result.feedback.warning ?? result.feedback.suggestions[0] ?? null;
  return `the password is too easy to guess${hint ? ` (${hint.replace(/\.$/, '').toLowerCase()})` : ''}`;
}
