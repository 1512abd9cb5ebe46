import { describe, expect, it } from 'vitest';
import { externalFroms, parseFromLines, rewriteFroms } from './dockerfile-from.ts';

const MULTI_STAGE = `ARG PY=3.12-slim
FROM --platform=linux/amd64 python:\${PY}@sha256:abc AS build
RUN make
FROM build AS test
FROM scratch
COPY --from=build /out /out
FROM envolve/base:bookworm
`;

describe('Dockerfile FROM lines', () => {
  it('finds images, substitutes ARG defaults and skips stage names and scratch', () => {
    const froms = parseFromLines(MULTI_STAGE);
    expect(froms.map((f) => f.image)).toEqual(['python:3.12-slim@sha256:abc', 'build', 'scratch', 'envolve/base:bookworm']);
    expect(externalFroms(froms).map((f) => f.image)).toEqual(['python:3.12-slim@sha256:abc', 'envolve/base:bookworm']);
  });

  it('rewrites only the given FROM lines and keeps their stage names', () => {
    const froms = parseFromLines(MULTI_STAGE);
    const out = rewriteFroms(MULTI_STAGE, [{ line: froms[0]!, imageId: 'sha256:base' }]);
    expect(out.split('\n')[1]).toBe('FROM sha256:base AS build');
    expect(out.split('\n').slice(2).join('\n')).toBe(MULTI_STAGE.split('\n').slice(2).join('\n'));
  });
});
