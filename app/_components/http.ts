// The browser's one way to call this app's JSON routes: non-2xx answers become HttpErrors
// carrying the server's message and status.
export class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

async function request<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', accept: 'application/json' } });
  const payload = (await response.json().catch(() => null)) as (T & { message?: string }) | null;
  if (!response.ok) throw new HttpError(payload?.message ?? `${url}: HTTP ${response.status}`, response.status);
  return payload as T;
}

/** GET, for TanStack queries. */
export function fetchJson<T>(url: string): Promise<T> {
  return request<T>(url, { method: 'GET' });
}

export type MutationMethod = 'POST' | 'PUT' | 'DELETE';

/** A mutating request; the body is sent as JSON when given. */
export function sendJson<T>(url: string, method: MutationMethod, body?: unknown): Promise<T> {
  return request<T>(url, { method, body: body === undefined ? undefined : JSON.stringify(body) });
}

// Poll quickly while a validation is queued or running, not at all otherwise.
export const PENDING_REFETCH_MS = 2_000;
