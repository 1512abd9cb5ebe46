// fetch() for TanStack Query: non-2xx answers become errors carrying the server's message.
export async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `${url}: HTTP ${response.status}`);
  }
  return (await response.json()) as T;
}

// Poll quickly while a validation is queued or running, not at all otherwise.
export const PENDING_REFETCH_MS = 2_000;
