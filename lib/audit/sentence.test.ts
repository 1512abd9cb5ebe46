import { describe, expect, it } from 'vitest';
import { auditSentence, sentenceText } from './sentence.ts';

describe('auditSentence', () => {
  it('names the actor, what they did and links the subject by its readable name', () => {
    const parts = auditSentence(
      { actorEmail: 'rae@x.test', action: 'generation.approve', subjectType: 'generation', subjectId: 'g1' },
      new Map([['generation:g1', 'logs-awk generation 3']]),
    );
    expect(sentenceText(parts)).toBe('rae@x.test approved logs-awk generation 3.');
    expect(parts[1]).toEqual({ text: 'logs-awk generation 3', href: '/generations/g1' });
  });

  it('falls back to the kind and a short id, and to the raw action for an unknown one', () => {
    const parts = auditSentence({ actorEmail: 'lee@x.test', action: 'thing.frob', subjectType: 'missed-issue', subjectId: 'abcdefghijklmnop' });
    expect(sentenceText(parts)).toBe('lee@x.test did thing.frob on missed issue abcdefghijkl.');
    expect(parts[1]?.href).toBe('/missed-issues/abcdefghijklmnop');
  });
});
