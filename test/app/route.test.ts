// The route wrapper every app/api route is written with: permission first, then the path, query
// and JSON body through their schemas, and one answer per kind of error.
import { beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { z } from 'zod';
import { ConflictError, ForbiddenError, GoneError, InvalidInputError, NotFoundError, RefusedError } from '../../lib/errors/index.ts';
import { DockerUnavailableError } from '../../lib/sandbox/docker.ts';
import { SequenceParseError } from '../../lib/sequence/parse.ts';

const guard = vi.hoisted(() => ({ answer: null as Response | null }));
vi.mock('@/app/_server/session.ts', () => ({
  guardRoute: async () => guard.answer ?? { id: 'u1', email: 'lead@example.test', name: 'Lead', role: 'lead' },
}));
vi.mock('@/app/_server/db.ts', () => ({ requestDb: async () => ({}) }));

const { found, route } = await import('../../app/_server/route.ts');

const context = (params: Record<string, string> = {}) => ({ params: Promise.resolve(params) });
const post = (body: string) => new Request('http://envolve.test/api/x', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
const echo = route({ permission: 'rubric.manage', body: z.object({ active: z.boolean() }) }, async ({ body }) => ({ got: body.active }));

// The process logger (lib/log) writes its records to stderr.
let stderr: MockInstance<typeof process.stderr.write>;
let consoleError: MockInstance<typeof console.error>;
const logged = () => stderr.mock.calls.map(([chunk]) => String(chunk)).join('');

beforeEach(() => {
  guard.answer = null;
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('route()', () => {
  it('answers the handler value as JSON, with the status the spec names', async () => {
    const created = route({ permission: 'rubric.manage', body: z.object({ active: z.boolean() }), status: 201 }, async ({ body, user }) => ({
      active: body.active,
      by: user.email,
    }));
    const response = await created(post('{"active":true}'), context());
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ active: true, by: 'lead@example.test' });
  });

  it('returns the guard answer before reading anything', async () => {
    guard.answer = Response.json({ error: 'forbidden', message: 'no' }, { status: 403 });
    expect((await echo(post('not json'), context())).status).toBe(403);
  });

  it('answers a malformed JSON body with a 400 saying so', async () => {
    const response = await echo(post('{"active": tru'), context());
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'bad_request', message: 'the request body is not valid JSON' });
  });

  it('answers wrong types and a missing body with a 400 naming the field', async () => {
    const wrong = await echo(post('{"active":"yes"}'), context());
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { message: string }).message).toMatch(/^active: /);
    expect((await echo(post(''), context())).status).toBe(400);
  });

  it('parses path parameters and the query string with their schemas', async () => {
    const read = route(
      { permission: 'dashboard.read', params: z.object({ id: z.string().regex(/^[a-z]+$/) }), query: z.object({ n: z.coerce.number().int() }) },
      async ({ params, query }) => ({ id: params.id, n: query.n }),
    );
    expect(await (await read(new Request('http://envolve.test/x?n=3'), context({ id: 'abc' }))).json()).toEqual({ id: 'abc', n: 3 });
    const badQuery = await read(new Request('http://envolve.test/x?n=three'), context({ id: 'abc' }));
    expect(badQuery.status).toBe(400);
    expect(((await badQuery.json()) as { message: string }).message).toMatch(/^n: /);
    expect((await read(new Request('http://envolve.test/x?n=1'), context({ id: 'A!' }))).status).toBe(400);
  });

  it('maps each domain error to its status, with its code, message and details', async () => {
    const cases: [Error, number, string][] = [
      [new InvalidInputError('bad'), 400, 'bad_request'],
      [new ForbiddenError('not yours', { code: 'held_out' }), 403, 'held_out'],
      [new NotFoundError('none'), 404, 'not_found'],
      [new ConflictError('moved', { details: { revision: 4 } }), 409, 'conflict'],
      [new GoneError('flagged'), 410, 'gone'],
      [new RefusedError('needs a reason'), 422, 'refused'],
      // A lib module's own error class answers as its category, with its own code.
      [new SequenceParseError(['steps[0].skill: unknown']), 400, 'invalid_sequence'],
    ];
    for (const [error, status, code] of cases) {
      const response = await route({ permission: 'dashboard.read' }, async () => {
        throw error;
      })(new Request('http://envolve.test/x'), context());
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ error: code, message: error.message });
    }
  });

  it('answers an unexpected error (a stray RangeError) with a generic 500, never its message', async () => {
    const response = await route({ permission: 'dashboard.read' }, async () => {
      throw new RangeError('index 7 out of range in the internals');
    })(new Request('http://envolve.test/x'), context());
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('internal');
    expect(body.message).not.toContain('internals');
    expect(logged()).toContain('index 7 out of range in the internals');
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('answers an unavailable service with a 503 and its code, logging the message it keeps from the client', async () => {
    const response = await route({ permission: 'dashboard.read' }, async () => {
      throw new DockerUnavailableError(new Error('connect ENOENT /var/run/docker.sock'));
    })(new Request('http://envolve.test/x'), context());
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('docker_unavailable');
    expect(body.message).not.toContain('docker.sock');
    expect(logged()).toContain('connect ENOENT /var/run/docker.sock');
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('turns a lib read that found nothing into a 404', async () => {
    const read = route({ permission: 'dashboard.read' }, async () => found(null, 'no lineage l1'));
    const response = await read(new Request('http://envolve.test/x'), context());
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', message: 'no lineage l1' });
  });
});
