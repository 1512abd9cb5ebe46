import { describe, expect, it } from 'vitest';
import { jsonEntries } from './flatten.ts';

describe('jsonEntries', () => {
  it('flattens nested objects to dotted keys', () => {
    expect(jsonEntries('{"networkMode":"none","oomKilled":false,"limits":{"cpus":1,"memoryMb":1024}}')).toEqual([
      { key: 'networkMode', value: 'none' },
      { key: 'oomKilled', value: 'false' },
      { key: 'limits.cpus', value: '1' },
      { key: 'limits.memoryMb', value: '1024' },
    ]);
  });

  it('shows nothing for null and unparsable JSON as one raw row', () => {
    expect(jsonEntries(null)).toEqual([]);
    expect(jsonEntries('{oops')).toEqual([{ key: 'raw', value: '{oops' }]);
  });
});
