// Small Harbor tasks built in code for the sandbox tests.
import type { TaskBundle } from '../../lib/bundle/bundle.ts';

export function bundle(name: string, files: Record<string, string>): TaskBundle {
  return {
    name,
    files: Object.entries(files)
      .map(([path, text]) => ({ path, content: Buffer.from(text), executable: path.endsWith('.sh') }))
      .sort((a, b) => a.path.localeCompare(b.path)),
  };
}

// The agent user owns /app, the task's working directory.
export const AGENT_DOCKERFILE = 'FROM envolve/base:bookworm\nRUN mkdir /app && chown agent:agent /app\nWORKDIR /app\nUSER agent\n';

const CHECK_HELLO = `#!/bin/bash
if [ "$(cat /app/out.txt 2>/dev/null)" = hello ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
`;

const TASK_TOML = '[metadata]\ndifficulty = "easy"\n[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 60\n';

// Write "hello" to /app/out.txt: oracle scores 1, nop scores 0.
export function helloTask(overrides: Record<string, string> = {}): TaskBundle {
  return bundle('hello', {
    'task.toml': TASK_TOML,
    'instruction.md': 'Write the word hello to /app/out.txt.\n',
    'environment/Dockerfile': AGENT_DOCKERFILE,
    'solution/solve.sh': '#!/bin/bash\necho "solver runs as $(id -un) in $(pwd)"\necho hello > /app/out.txt\n',
    'tests/test.sh': CHECK_HELLO,
    ...overrides,
  });
}

// The same task with the agent running as root (no USER in the Dockerfile):
// nothing but the phase order protects the reward file.
export function helloTaskAsRoot(): TaskBundle {
  return helloTask({ 'environment/Dockerfile': 'FROM envolve/base:bookworm\nWORKDIR /app\nRUN chmod 0777 /app\n' });
}
