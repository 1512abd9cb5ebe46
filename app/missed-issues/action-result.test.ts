// How lib's errors reach a form: a domain error's message is shown, an unavailable service's
// message (meant for the operator) is not: it is thrown on to the framework's error handling.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConflictError, UnavailableError } from '@/lib/errors/index.ts';
import { failure } from './action-result.ts';

describe('failure()', () => {
  it('shows a refusal or conflict by its message and a schema failure by its fields', () => {
    expect(failure(new ConflictError('the issue was dismissed meanwhile'))).toEqual({
      ok: false,
      message: 'the issue was dismissed meanwhile',
      fieldErrors: {},
    });
    const parsed = z.object({ title: z.string().min(1) }).safeParse({ title: '' });
    expect(failure(parsed.error)).toMatchObject({ ok: false, fieldErrors: { title: expect.any(String) } });
  });

  it('throws an unavailable service on rather than showing its message', () => {
    const down = new UnavailableError('the Docker engine at unix:///var/run/docker.sock does not answer', { code: 'docker_unavailable' });
    expect(() => failure(down)).toThrow(down);
  });
});
