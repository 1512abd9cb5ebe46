import { describe, expect, it } from 'vitest';
import { mappedImageFor, mappingFromFlags, mergeMappings, parseMappingEntries, parseReference } from './base-image-map.ts';

const DIGEST = `sha256:${'ab'.repeat(32)}`;

describe('parseReference', () => {
  it('splits name, tag and digest, ignoring docker.io/ and library/', () => {
    expect(parseReference(`docker.io/library/Python:3.12-slim@${DIGEST}`)).toEqual({ name: 'python', tag: '3.12-slim', digest: DIGEST });
    expect(parseReference('localhost:5000/team/img')).toEqual({ name: 'localhost:5000/team/img', tag: undefined, digest: undefined });
  });
});

describe('mappedImageFor', () => {
  const mapping = {
    images: {
      'python:3.12-slim': 'lab/python:3.12',
      [`python@${DIGEST}`]: 'lab/python:pinned',
      rust: 'lab/rust:1',
    },
    unmatchedToBase: false,
  };

  it('matches a digest-pinned FROM by its tag, by its digest (most specific wins) and by bare name', () => {
    expect(mappedImageFor(mapping, `python:3.12-slim@sha256:${'cd'.repeat(32)}`)).toBe('lab/python:3.12');
    expect(mappedImageFor(mapping, `python:3.12-slim@${DIGEST}`)).toBe('lab/python:pinned');
    expect(mappedImageFor(mapping, 'docker.io/library/python:3.12-slim')).toBe('lab/python:3.12');
    expect(mappedImageFor(mapping, 'rust:1.80-bookworm')).toBe('lab/rust:1');
  });

  it('does not match another tag, or a bare name mapped by tag', () => {
    expect(mappedImageFor(mapping, 'python:3.11')).toBeUndefined();
    expect(mappedImageFor(mapping, 'python')).toBeUndefined();
    expect(mappedImageFor(mapping, 'golang:1.22')).toBeUndefined();
  });
});

describe('flags', () => {
  it('parses FROM=local entries (a digest-pinned key included) and refuses malformed ones', () => {
    expect(parseMappingEntries([`python:3.12@${DIGEST}=lab/python:3.12`])).toEqual({ [`python:3.12@${DIGEST}`]: 'lab/python:3.12' });
    expect(() => parseMappingEntries(['python:3.12'])).toThrow("--base-image takes FROM-reference=local-image, not 'python:3.12'");
    expect(() => parseMappingEntries(['=lab/x'])).toThrow(/FROM-reference=local-image/);
  });

  it('gives no mapping without flags, and the blanket choice only when asked', () => {
    expect(mappingFromFlags({})).toBeUndefined();
    expect(mappingFromFlags({ mapBaseImage: true })).toEqual({ images: {}, unmatchedToBase: true });
  });

  it("lays a run's flags over the lineage's mapping image by image", () => {
    const stored = { images: { a: 'x', b: 'y' }, unmatchedToBase: false };
    expect(mergeMappings(stored, { images: { b: 'z' }, unmatchedToBase: false })).toEqual({ images: { a: 'x', b: 'z' }, unmatchedToBase: false });
    expect(mergeMappings(stored, undefined)).toBe(stored);
  });
});
