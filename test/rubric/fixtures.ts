// Bundles for the rubric tests: the shipped examples, a task shaped like a typical
// imported Harbor task, and plans for the plan items.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { TaskBundle } from '../../lib/bundle/bundle.ts';
import { readTaskDir } from '../../lib/env/read-task-dir.ts';
import type { Sequence } from '../../lib/sequence/types.ts';
import type { Plan } from '../../lib/synth/types.ts';
import { bundle } from '../sandbox/fixtures.ts';

const EXAMPLES_DIR = path.resolve(import.meta.dirname, '../../examples/tasks');

export async function exampleBundles(): Promise<TaskBundle[]> {
  const names = readdirSync(EXAMPLES_DIR).sort();
  return Promise.all(names.map(async (name) => (await readTaskDir(path.join(EXAMPLES_DIR, name))).bundle));
}

// A bundle with some files replaced, added, or (value null) removed.
export function withFiles(base: TaskBundle, changes: Record<string, string | null>): TaskBundle {
  const files = base.files.filter((f) => !(f.path in changes));
  for (const [filePath, text] of Object.entries(changes)) {
    if (text !== null) files.push({ path: filePath, content: Buffer.from(text), executable: filePath.endsWith('.sh') });
  }
  return { name: base.name, files: files.sort((a, b) => a.path.localeCompare(b.path)) };
}

// The layout and habits of tasks imported from Harbor collections: a registry base image
// pinned by tag, pytest fetched by the verifier, the reward written from its exit status.
export function importedStyleTask(): TaskBundle {
  return bundle('imported-style', {
    'task.toml': 'version = "2.0"\n[metadata]\ndifficulty = "medium"\n[environment]\nworkdir = "/app"\n',
    'instruction.md': 'Count the lines of `/app/data.csv` (without its header) and write the number to `/app/output.txt`.\n',
    'environment/Dockerfile': 'FROM ghcr.io/laude-institute/t-bench/python-3-13:20250620\n\nWORKDIR /app\n# inputs\nCOPY data.csv /app/data.csv\n',
    'environment/data.csv': 'id,value\n1,a\n2,b\n3,c\n',
    'solution/solve.sh': '#!/bin/bash\nset -e\ntail -n +2 /app/data.csv | wc -l > /app/output.txt\n',
    'tests/test.sh': [
      '#!/bin/bash',
      'curl -LsSf https://astral.sh/uv/0.7.13/install.sh | sh',
      'source $HOME/.local/bin/env',
      'uvx -p 3.13 -w pytest==8.4.1 -w pytest-json-ctrf==0.3.5 pytest --ctrf /logs/verifier/ctrf.json /tests/test_outputs.py -rA',
      'if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi',
      '',
    ].join('\n'),
    'tests/test_outputs.py': 'from pathlib import Path\n\n\ndef test_count():\n    assert Path("/app/output.txt").read_text().strip() == "3"\n',
  });
}

export const PARENT_SEQUENCE: Sequence = {
  steps: [
    { id: 's1', scenario: 'web-server logs', skill: 'awk field extraction', dependsOn: [] },
    { id: 's2', scenario: 'web-server logs', skill: 'sort/uniq counting', dependsOn: ['s1'] },
  ],
};

const RATIONALE = 'A third step joins the per-IP counts with a blocklist, so the chain gets one dependent step longer.';

export function lengthPlan(dependsOn: string[]): Plan {
  return {
    edit: { axis: 'length', effort: 'low', inserted: ['s3'], replaced: [] },
    child: { steps: [...PARENT_SEQUENCE.steps, { id: 's3', scenario: 'web-server logs', skill: 'join', dependsOn }] },
    rationale: RATIONALE,
  };
}

export function scenarioPlan(changeSkillToo: boolean): Plan {
  const [first, second] = PARENT_SEQUENCE.steps as [Sequence['steps'][number], Sequence['steps'][number]];
  const edited = { ...second, scenario: 'payments ledger', skill: changeSkillToo ? 'sql joins' : second.skill };
  return {
    edit: { axis: 'scenario', effort: 'low', inserted: [], replaced: [{ stepId: 's2', field: 'scenario', from: second.scenario, to: edited.scenario }] },
    child: { steps: [first, edited] },
    rationale: RATIONALE,
  };
}
