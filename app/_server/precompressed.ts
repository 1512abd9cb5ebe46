// A JSON answer whose gzip a lib memo keeps (lib/drift/load-view.ts): sent compressed to a client
// that accepts gzip (Next leaves an answer that has its encoding as it is), else as it is.
export interface PrecompressedJson {
  json: string;
  gzip(): Promise<Buffer>;
}

/** Whether an Accept-Encoding header admits gzip (by name or "*", with a non-zero q). */
export function acceptsGzip(header: string | null): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

export async function precompressedJson(request: Request, body: PrecompressedJson): Promise<Response> {
  const headers = { 'content-type': 'application/json', vary: 'accept-encoding' };
  if (!acceptsGzip(request.headers.get('accept-encoding'))) return new Response(body.json, { headers });
  return new Response(new Uint8Array(await body.gzip()), { headers: { ...headers, 'content-encoding': 'gzip' } });
}
