// The built-in executable items against real containers: every one passes on the shipped
// examples and on a task shaped like a typical Harbor import (an item that fails a good
// task is wrong), and each one fails on a bundle that breaks exactly its rule.
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxBeforeAll, sandboxTest } from '../fixtures/test.ts';
import type { TaskBundle } from '../../lib/bundle/bundle.ts';
import { BUILTIN_RUBRIC, type RubricItemDef } from '../../lib/rubric/index.ts';
import type { DockerSandbox } from '../../lib/sandbox/index.ts';
import { exampleBundles, importedStyleTask, withFiles } from './fixtures.ts';

const environmentChecks = BUILTIN_RUBRIC.filter((i): i is RubricItemDef & { check: string } => i.check !== null && i.appliesTo !== 'plan');
let good: TaskBundle[];

sandboxBeforeAll();
beforeAll(async () => {
  good = [...(await exampleBundles()), importedStyleTask()];
});

async function runItems(sandbox: DockerSandbox, bundle: TaskBundle, items: Array<RubricItemDef & { check: string }>) {
  const { results } = await sandbox.runChecks({ files: bundle.files, checks: items.map((i) => ({ id: i.key, script: i.check })) });
  return Object.fromEntries(results.map((r) => [r.id, r]));
}

function item(key: string) {
  const found = environmentChecks.find((i) => i.key === key);
  if (!found) throw new Error(`no executable built-in item ${key}`);
  return found;
}

describe('built-in executable items on good tasks', () => {
  it('ships at least the Harbor criteria with a check and Envolve contracts', () => {
    expect(environmentChecks.map((i) => i.key).sort()).toEqual([
      'dockerfile_offline',
      'image_copies_no_solution_or_tests',
      'output_paths_in_instruction',
      'pinned_dependencies',
      'reward_file_written',
      'solution_has_no_literal_answers',
      'test_deps_in_image',
      'tests_or_solution_in_image',
    ]);
  });

  sandboxTest('all pass on every shipped example and an imported-style task', async ({ sandbox }) => {
    expect(good.map((b) => b.name)).toEqual([
      'access-log-report',
      'dependency-audit',
      'payments-reconciliation',
      'seed-ledger-sql',
      'seed-logs-awk',
      'seed-telemetry-jq',
      'imported-style',
    ]);
    for (const bundle of good) {
      const results = await runItems(sandbox, bundle, environmentChecks);
      for (const [key, result] of Object.entries(results)) {
        expect({ task: bundle.name, key, exitCode: result.exitCode, output: result.output }).toMatchObject({ exitCode: 0 });
      }
    }
  });
});

// Each case: an item, and a change to the first example that breaks its rule.
const BAD: Array<{ key: string; why: string; change: Record<string, string | null>; detail: RegExp }> = [
  {
    key: 'reward_file_written',
    why: 'tests that never write a reward',
    change: { 'tests/test.sh': '#!/bin/bash\npython3 -c "import json; json.load(open(\'/app/report.json\'))" && echo ok\n' },
    detail: /nothing under tests\/ writes/,
  },
  {
    key: 'dockerfile_offline',
    why: 'a Dockerfile with apt-get install',
    change: {
      'environment/Dockerfile':
        'FROM envolve/base:bookworm\nRUN apt-get update && \\\n    apt-get install -y --no-install-recommends jq\nCOPY access.log /app/access.log\n',
    },
    detail: /apt-get install -y/,
  },
  {
    key: 'dockerfile_offline',
    why: 'a Dockerfile that pipes curl into a shell',
    change: { 'environment/Dockerfile': 'FROM envolve/base:bookworm\nRUN curl -fsSL https://example.com/install.sh | sh\n' },
    detail: /curl -fsSL/,
  },
  {
    key: 'image_copies_no_solution_or_tests',
    why: 'the solution copied into the image',
    change: { 'environment/Dockerfile': 'FROM envolve/base:bookworm\nCOPY access.log /app/access.log\nCOPY solution/solve.sh /opt/solve.sh\n' },
    detail: /copies solution\/solve\.sh/,
  },
  {
    key: 'image_copies_no_solution_or_tests',
    why: 'tests copied to /tests with flags and JSON syntax',
    change: { 'environment/Dockerfile': 'FROM envolve/base:bookworm\nCOPY --chown=agent:agent ["tests/", "/tests/"]\n' },
    detail: /copies tests/,
  },
  {
    key: 'output_paths_in_instruction',
    why: 'an output path the instruction never mentions',
    change: {
      'tests/test.sh': '#!/bin/bash\nif [ -s /app/summary.csv ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi\n',
    },
    detail: /\/app\/summary\.csv/,
  },
  {
    key: 'solution_has_no_literal_answers',
    why: 'the expected answers literally in solve.sh',
    change: {
      'tests/expected.json': '{"total_requests": 600, "bytes_sent": 13729609, "top_ip": "203.0.113.7"}\n',
      'solution/solve.sh': '#!/bin/bash\necho \'{"total_requests": 600, "bytes_sent": 13729609}\' > /app/report.json\n',
    },
    detail: /13729609/,
  },
  {
    key: 'pinned_dependencies',
    why: 'an untagged base image',
    change: { 'environment/Dockerfile': 'FROM ubuntu\nCOPY access.log /app/access.log\n' },
    detail: /FROM ubuntu: no version tag/,
  },
  {
    key: 'pinned_dependencies',
    why: 'an unpinned pip install in the verifier',
    change: {
      'tests/test.sh': '#!/bin/bash\npip install --quiet -r /tests/req.txt pytest requests==2.32.3\npytest /tests && echo 1 > /logs/verifier/reward.txt\n',
    },
    detail: /pip installs pytest without/,
  },
  {
    key: 'tests_or_solution_in_image',
    why: 'a copy of the solution in the build context',
    change: { 'environment/helper.sh': 'placeholder' },
    detail: /environment\/helper\.sh is a copy of solution\/solve\.sh/,
  },
  {
    key: 'test_deps_in_image',
    why: 'pytest installed in the image',
    change: { 'environment/Dockerfile': 'FROM envolve/base:bookworm\nRUN pip install pytest==8.4.1\n' },
    detail: /installs test frameworks/,
  },
];

describe('values the instruction gives the agent', () => {
  sandboxTest('are inputs, not literal answers, even when expected.json and solve.sh both hold them', async ({ sandbox }) => {
    const [example] = await exampleBundles();
    const procedural = withFiles(example!, {
      'instruction.md': 'Step s1234 writes the number of requests to `/app/report.json`.\n',
      'tests/expected.json': '{"steps": [{"id": "s1234", "expected": "13729609"}]}\n',
      'solution/solve.sh': '#!/bin/bash\nwc -l < /app/access.log > /app/out/s1234.txt\n',
    });
    const result = (await runItems(sandbox, procedural, [item('solution_has_no_literal_answers')])).solution_has_no_literal_answers!;
    expect(result.exitCode, result.output).toBe(0);
  });
});

// The checks search many strings in one awk pass; these pin the rule they keep (grep -wF's).
describe('many strings in one pass', () => {
  sandboxTest('reports every literal answer, also one that is a prefix of another, and no partial word', async ({ sandbox }) => {
    const [example] = await exampleBundles();
    const bundle = withFiles(example!, {
      'tests/expected.json': '{"values": ["1234", "1234.5", "99999", "x123", "7777"]}\n',
      'solution/solve.sh': '#!/bin/bash\necho "total 1234.5" > /app/report.txt\necho 999990 >> /app/report.txt\necho 7777 >> /app/report.txt\n',
      'instruction.md': 'Write `/app/report.json`; use the threshold 7777.\n',
    });
    const result = (await runItems(sandbox, bundle, [item('solution_has_no_literal_answers')])).solution_has_no_literal_answers!;
    expect(result.exitCode, result.output).toBe(1);
    const reported = [...result.output.matchAll(/expected value '([^']+)'/g)].map((m) => m[1]).sort();
    expect(reported).toEqual(['1234', '1234.5']);
  });

  sandboxTest('accepts an /app path named in full or by its part below /app as a word, and names each missing one', async ({ sandbox }) => {
    const [example] = await exampleBundles();
    const bundle = withFiles(example!, {
      'instruction.md': 'Write the counts to `out/counts.txt` and the report to /app/report.json.\n',
      'tests/test.sh':
        '#!/bin/bash\nok=1\nfor f in /app/report.json /app/out/counts.txt /app/summary.csv /app/total.txt; do [ -s "$f" ] || ok=0; done\n' +
        'echo $ok > /logs/verifier/reward.txt\n',
    });
    const result = (await runItems(sandbox, bundle, [item('output_paths_in_instruction')])).output_paths_in_instruction!;
    expect(result.exitCode, result.output).toBe(1);
    expect(result.output.trim().split('\n').sort()).toEqual([
      'tests/ uses /app/summary.csv but instruction.md never mentions it',
      'tests/ uses /app/total.txt but instruction.md never mentions it',
    ]);
  });

  sandboxTest('names every copied reference file in the build context, and a solve.sh there by its name', async ({ sandbox }) => {
    const [example] = await exampleBundles();
    const file = (path: string) => example!.files.find((f) => f.path === path)!.content.toString('utf8');
    const bundle = withFiles(example!, {
      'environment/a/helper.sh': file('solution/solve.sh'),
      'environment/b/check.sh': file('tests/test.sh'),
      'environment/solve.sh': '#!/bin/bash\n',
    });
    const result = (await runItems(sandbox, bundle, [item('tests_or_solution_in_image')])).tests_or_solution_in_image!;
    expect(result.exitCode, result.output).toBe(1);
    expect(result.output).toContain('environment/a/helper.sh is a copy of solution/solve.sh');
    expect(result.output).toContain('environment/b/check.sh is a copy of tests/test.sh');
    expect(result.output).toContain("environment/solve.sh: the reference solution's name in the build context");
  });
});

describe('built-in executable items on bad bundles', () => {
  sandboxTest.for(BAD)('$key fails on $why', async ({ key, change, detail }, { sandbox }) => {
    const [example] = await exampleBundles();
    const solve = example!.files.find((f) => f.path === 'solution/solve.sh')!.content.toString('utf8');
    // The build-context copy of the solution must be byte-identical to it.
    const resolved = Object.fromEntries(Object.entries(change).map(([p, text]) => [p, text === 'placeholder' ? solve : text]));
    const result = (await runItems(sandbox, withFiles(example!, resolved), [item(key)]))[key]!;
    expect(result.exitCode, result.output).toBe(1);
    expect(result.output).toMatch(detail);
  });
});
