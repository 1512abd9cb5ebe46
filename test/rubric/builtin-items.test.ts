// The built-in executable items against real containers: every one passes on the shipped
// examples and on a task shaped like a typical Harbor import (an item that fails a good
// task is wrong), and each one fails on a bundle that breaks exactly its rule.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskBundle } from '../../lib/env/bundle.ts';
import { BUILTIN_RUBRIC, type RubricItemDef } from '../../lib/rubric/index.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { exampleBundles, importedStyleTask, withFiles } from './fixtures.ts';

const sandbox = new DockerSandbox();
const environmentChecks = BUILTIN_RUBRIC.filter((i): i is RubricItemDef & { check: string } => i.check !== null && i.appliesTo !== 'plan');
let good: TaskBundle[];

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  good = [...(await exampleBundles()), importedStyleTask()];
});

async function runItems(bundle: TaskBundle, items: Array<RubricItemDef & { check: string }>) {
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

  it('all pass on every shipped example and an imported-style task', async () => {
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
      const results = await runItems(bundle, environmentChecks);
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
    change: { 'environment/Dockerfile': 'FROM envolve/base:bookworm\nRUN apt-get update && \\\n    apt-get install -y --no-install-recommends jq\nCOPY access.log /app/access.log\n' },
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
    change: { 'tests/test.sh': '#!/bin/bash\npip install --quiet -r /tests/req.txt pytest requests==2.32.3\npytest /tests && echo 1 > /logs/verifier/reward.txt\n' },
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
  it('are inputs, not literal answers, even when expected.json and solve.sh both hold them', async () => {
    const [example] = await exampleBundles();
    const procedural = withFiles(example!, {
      'instruction.md': 'Step s1234 writes the number of requests to `/app/report.json`.\n',
      'tests/expected.json': '{"steps": [{"id": "s1234", "expected": "13729609"}]}\n',
      'solution/solve.sh': '#!/bin/bash\nwc -l < /app/access.log > /app/out/s1234.txt\n',
    });
    const result = (await runItems(procedural, [item('solution_has_no_literal_answers')])).solution_has_no_literal_answers!;
    expect(result.exitCode, result.output).toBe(0);
  });
});

describe('built-in executable items on bad bundles', () => {
  it.each(BAD)('$key fails on $why', async ({ key, change, detail }) => {
    const [example] = await exampleBundles();
    const solve = example!.files.find((f) => f.path === 'solution/solve.sh')!.content.toString('utf8');
    // The build-context copy of the solution must be byte-identical to it.
    const resolved = Object.fromEntries(Object.entries(change).map(([p, text]) => [p, text === 'placeholder' ? solve : text]));
    const result = (await runItems(withFiles(example!, resolved), [item(key)]))[key]!;
    expect(result.exitCode, result.output).toBe(1);
    expect(result.output).toMatch(detail);
  });
});
