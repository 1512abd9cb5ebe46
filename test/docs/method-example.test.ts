// docs/method.md's worked example is the shipped table's own arithmetic: it fails when the table
// changes and the document was not regenerated (npx tsx scripts/write-method-example.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WORKED_EXAMPLE_END, WORKED_EXAMPLE_START, workedExample } from '../../lib/difficulty/index.ts';

describe('the worked example of docs/method.md', () => {
  it('is what the shipped table computes', () => {
    const text = readFileSync('docs/method.md', 'utf8');
    const block = text.slice(text.indexOf(WORKED_EXAMPLE_START), text.indexOf(WORKED_EXAMPLE_END) + WORKED_EXAMPLE_END.length);
    expect(block).toBe(workedExample());
  });
});
