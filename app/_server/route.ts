// The one way a route handler is written: `route({ permission, params, query, body }, handler)`.
// The wrapper authorises the caller, parses the path parameters, the query string and the JSON
// body with the zod schemas lib exports beside the function they guard, and answers every error
// the same way (errorResponse). A handler returns a value (sent as JSON) or a Response.
import type { z } from 'zod';
import type { Permission } from '@/lib/auth/index.ts';
import type { Db } from '@/lib/db/index.ts';
import { NotFoundError } from '@/lib/errors/index.ts';
import { requestDb } from './db.ts';
import { errorResponse, invalidJson } from './errors.ts';
import { guardRoute, type SessionUser } from './session.ts';

type Schema = z.ZodType;
type Parsed<S> = S extends Schema ? z.output<S> : undefined;

export interface RouteSpec<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined> {
  permission: Permission;
  params?: P; // the path parameters, as an object
  query?: Q; // the query string, as an object of its first values
  body?: B; // the JSON body; an empty body is `undefined` to the schema
  status?: number; // of a successful JSON answer
}

export interface RouteInput<P, Q, B> {
  request: Request;
  user: SessionUser;
  db: Db;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
}

type Context = { params: Promise<Record<string, string | string[]>> };
type Handler = (request: Request, context: Context) => Promise<Response>;

class InvalidJson extends Error {}

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidJson();
  }
}

function parse<S extends Schema | undefined>(schema: S, value: unknown): Parsed<S> {
  return (schema ? schema.parse(value) : undefined) as Parsed<S>;
}

export function route<P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined>(
  spec: RouteSpec<P, Q, B>,
  handler: (input: RouteInput<P, Q, B>) => Promise<unknown>,
): Handler {
  return async (request, context) => {
    try {
      const user = await guardRoute(request, spec.permission);
      if (user instanceof Response) return user;
      const params = parse(spec.params as P, await context.params);
      const query = parse(spec.query as Q, Object.fromEntries(new URL(request.url).searchParams));
      const body = parse(spec.body as B, spec.body ? await readJson(request) : undefined);
      const result = await handler({ request, user, db: await requestDb(), params, query, body });
      return result instanceof Response ? result : Response.json(result, { status: spec.status ?? 200 });
    } catch (err) {
      return err instanceof InvalidJson ? invalidJson() : errorResponse(err);
    }
  };
}

/** A route anyone may call (liveness, the sign-in endpoints): errors answered the same way. */
export function publicRoute(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return await handler(request);
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/** The value a lib read found, or a 404 naming what was not there. */
export function found<T>(value: T | null | undefined, message: string): T {
  if (value === null || value === undefined) throw new NotFoundError(message);
  return value;
}
