import { describe, expect, it } from 'vitest';
import { describeEdit, diffSequences } from './diff.ts';
import { insertSteps, replaceField } from './edit.ts';
import { nextStepId, nextStepIds } from './ids.ts';
import { parseSequence, SequenceParseError } from './parse.ts';
import { structuralViolations } from './structure.ts';
import { parent, step } from '../../test/fixtures/sequence-steps.ts';
import type { Sequence } from './types.ts';

describe('nextStepId', () => {
  it('numbers past the highest sN and ignores ids of other shapes', () => {
    expect(nextStepId(parent)).toBe('s5');
    expect(nextStepId({ steps: [step('s9', 'a', 'b'), step('extract', 'a', 'b'), step('s2', 'a', 'b')] })).toBe('s10');
    expect(nextStepId({ steps: [] })).toBe('s1');
    expect(nextStepIds(parent, 3)).toEqual(['s5', 's6', 's7']);
  });
});

describe('insertSteps / replaceField', () => {
  it('inserts at a position without touching the parent', () => {
    const child = insertSteps(parent, 2, [step('s5', 'ci-artifacts', 'tar-archive', ['s2'])]);
    expect(child.steps.map((s) => s.id)).toEqual(['s1', 's2', 's5', 's3', 's4']);
    expect(parent.steps).toHaveLength(4);
    child.steps[0]!.dependsOn.push('x');
    expect(parent.steps[0]!.dependsOn).toEqual([]);
  });

  it('refuses positions out of range and ids in use', () => {
    expect(() => insertSteps(parent, 5, [])).toThrow(/outside 0..4/);
    expect(() => insertSteps(parent, 1, [step('s2', 'a', 'b', ['s1'])])).toThrow(/already in use/);
  });

  it('replaces one field of the named steps', () => {
    const child = replaceField(parent, ['s2', 's3'], 'scenario', ['auth-syslog', 'inventory-csv']);
    expect(child.steps.map((s) => s.scenario)).toEqual(['web-access-log', 'auth-syslog', 'inventory-csv', 'payments-ledger']);
    expect(child.steps.map((s) => s.skill)).toEqual(parent.steps.map((s) => s.skill));
    expect(parent.steps[1]!.scenario).toBe('web-access-log');
  });

  it('refuses unknown steps and mismatched lists', () => {
    expect(() => replaceField(parent, ['s9'], 'skill', ['jq-query'])).toThrow(/no step "s9"/);
    expect(() => replaceField(parent, ['s1', 's2'], 'skill', ['jq-query'])).toThrow(/2 step ids but 1 names/);
  });
});

describe('diffSequences', () => {
  it('names inserted and replaced steps by id', () => {
    const lengthened = insertSteps(parent, 4, [step('s5', 'ci-artifacts', 'sha256-checksum', ['s4'])]);
    const child = replaceField(lengthened, ['s3'], 'skill', ['sqlite-sql']);
    expect(diffSequences(parent, child)).toEqual({
      inserted: ['s5'],
      removed: [],
      replaced: [{ stepId: 's3', field: 'skill', from: 'join-tables', to: 'sqlite-sql' }],
      rewired: [],
      reordered: false,
    });
    expect(describeEdit(parent, child, 'length', 'max')).toEqual({
      axis: 'length',
      effort: 'max',
      inserted: ['s5'],
      replaced: [{ stepId: 's3', field: 'skill', from: 'join-tables', to: 'sqlite-sql' }],
    });
  });

  it('sees removed, rewired and reordered steps', () => {
    const child: Sequence = { steps: [step('s2', 'web-access-log', 'sort-uniq-count'), step('s1', 'web-access-log', 'awk-fields'), parent.steps[2]!] };
    expect(diffSequences(parent, child)).toMatchObject({ removed: ['s4'], rewired: ['s2'], reordered: true, inserted: [] });
  });
});

describe('structuralViolations', () => {
  it('accepts a DAG in order', () => {
    expect(structuralViolations(parent)).toEqual([]);
  });

  it('reports duplicate ids, self-dependency, forward and unknown dependencies', () => {
    const bad: Sequence = {
      steps: [step('s1', 'a', 'b', ['s2']), step('s2', 'a', 'b', ['s2']), step('s2', 'a', 'b'), step('s3', 'a', 'b', ['nope'])],
    };
    const violations = structuralViolations(bad);
    expect(violations).toHaveLength(4);
    expect(violations.join('\n')).toMatch(/step 1 \(s1\): depends on "s2", which is not an earlier step/);
    expect(violations.join('\n')).toMatch(/step 2 \(s2\): depends on itself/);
    expect(violations.join('\n')).toMatch(/step 3 \(s2\): duplicate id "s2"/);
    expect(violations.join('\n')).toMatch(/step 4 \(s3\): depends on "nope"/);
  });
});

describe('parseSequence', () => {
  it('round-trips a stored sequence', () => {
    expect(parseSequence(JSON.stringify(parent))).toEqual(parent);
    expect(parseSequence({ steps: [{ ...step('s1', 'a', 'b'), summary: 'count hits' }] }).steps[0]!.summary).toBe('count hits');
  });

  it('names the path of each shape problem', () => {
    const error = (() => {
      try {
        parseSequence({ steps: [step('s1', 'a', 'b'), { id: 's2', scenario: 'a', dependsOn: 's1' }] });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SequenceParseError);
    const problems = (error as SequenceParseError).problems.join('\n');
    expect(problems).toMatch(/steps\[1\]\.skill/);
    expect(problems).toMatch(/steps\[1\]\.dependsOn/);
  });

  it('refuses non-JSON and structurally invalid sequences', () => {
    expect(() => parseSequence('{steps:')).toThrow(/not JSON/);
    expect(() => parseSequence({ steps: [step('s1', 'a', 'b', ['s1'])] })).toThrow(/depends on itself/);
    expect(() => parseSequence({})).toThrow(/steps/);
  });
});
