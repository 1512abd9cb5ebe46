// What the two LLM policies (Anthropic, OpenAI-compatible) share: the agent's one tool (bash)
// and its schema, the system prompt, the working directory it names, and how a command's result
// is shown to the model. Outputs are truncated IN THE PROMPT only, to bound the context; the
// terminal result the runner stores stays whole.
import { z } from 'zod';
import { bundleFile, type TaskBundle, parseTaskConfig } from '../../bundle/index.ts';
import { composeFileOf, parseCompose } from '../../sandbox/index.ts';
import type { CommandResult } from '../types.ts';

export const BASH_TOOL_NAME = 'bash';

export const BASH_TOOL_DESCRIPTION =
  'Run one bash command in the task container and get back its combined stdout and stderr and its exit code. ' +
  'Each call starts a fresh shell in the working directory: `cd` and exported variables do not carry over, so chain ' +
  'dependent commands with && in one call. Files persist between calls. Commands must not wait for input.';

// Longer than any single command of a terminal task should need; the wall-clock budget still rules.
export const MAX_COMMAND_TIMEOUT_SEC = 1800;

export const bashInput = z.object({
  command: z.string().min(1).describe('The bash command (or script) to run.'),
  timeout: z.number().int().positive().max(MAX_COMMAND_TIMEOUT_SEC).optional().describe('Seconds after which the command is killed; omit for the default.'),
});

export type BashCall = { ok: true; command: string; timeoutSec?: number } | { ok: false; problem: string };

// The JSON Schema both APIs receive, generated from the zod schema the answers are parsed with.
export function bashInputJsonSchema(): { type: 'object'; [key: string]: unknown } {
  // The $schema dialect marker is not part of a tool definition.
  const { $schema: _dialect, ...json } = z.toJSONSchema(bashInput) as Record<string, unknown>;
  return { ...json, type: 'object' };
}

export function parseBashInput(input: unknown): BashCall {
  const parsed = bashInput.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`);
    return { ok: false, problem: `invalid ${BASH_TOOL_NAME} input (${problems.join('; ')}); call it as {"command": "..."}` };
  }
  return { ok: true, command: parsed.data.command, timeoutSec: parsed.data.timeout };
}

export function systemPrompt(workingDir: string, services: string[] = []): string {
  const network = services.length ? 'There is no internet access.' : 'There is no network access.';
  return [
    'You are an autonomous agent solving a task in a Linux container (Debian), through a bash tool.',
    `The working directory is ${workingDir}. ${network} Nobody will answer questions: work it out yourself.`,
    ...services,
    `Use the ${BASH_TOOL_NAME} tool to inspect files, run commands and write your results; run one command per call and read its output before the next.`,
    'Long outputs are shown to you shortened in the middle; use head, tail, grep or wc to look at large files.',
    'When the task is done (or you cannot make further progress), reply with a short summary WITHOUT calling the tool: that ends the episode, and your work is then checked.',
  ].join('\n');
}

// What a multi-container task runs beside the agent's container, in words for the prompt: its
// sidecars (reachable by service name) and the MCP servers its task.toml declares
// ([[environment.mcp_servers]]), which the agent reaches from the container.
export function environmentServices(task: TaskBundle): string[] {
  const lines: string[] = [];
  const compose = composeFileOf(task);
  const spec = compose ? parseCompose(compose.path, compose.text) : undefined;
  if (spec?.ok && spec.sidecars.length) {
    lines.push(`Other services run beside this container and are reachable by host name: ${spec.sidecars.map((s) => s.name).join(', ')}.`);
  }
  const toml = bundleFile(task, 'task.toml')?.content.toString('utf8');
  const config = toml === undefined ? undefined : parseTaskConfig(toml);
  const servers = config?.ok ? (config.config.environment as { mcp_servers?: unknown }).mcp_servers : undefined;
  if (Array.isArray(servers)) {
    for (const server of servers as Array<Record<string, unknown>>) {
      const where = [server.transport, server.url ?? server.command].filter((v) => typeof v === 'string').join(' ');
      lines.push(`MCP server '${String(server.name ?? 'unnamed')}'${where ? ` (${where})` : ''} is available to you from the container.`);
    }
  }
  return lines;
}

// The directory commands run in: the image's WORKDIR. The policy sees the task files, not the
// built image, so it reads the last stage's last WORKDIR of environment/Dockerfile, then
// task.toml's [environment] workdir, then falls back to /.
export function workingDirOf(task: TaskBundle): string {
  const dockerfile = bundleFile(task, 'environment/Dockerfile')?.content.toString('utf8');
  const fromDockerfile = dockerfile === undefined ? undefined : lastWorkdir(dockerfile);
  if (fromDockerfile) return fromDockerfile;
  const toml = bundleFile(task, 'task.toml')?.content.toString('utf8');
  const config = toml === undefined ? undefined : parseTaskConfig(toml);
  return (config?.ok ? config.config.environment.workdir : undefined) ?? '/';
}

function lastWorkdir(dockerfile: string): string | undefined {
  let dir: string | undefined;
  for (const line of dockerfile.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
    if (/^\s*FROM\s/i.test(line)) dir = undefined;
    const match = /^\s*WORKDIR\s+(.+?)\s*$/i.exec(line);
    if (!match?.[1]) continue;
    const next = match[1].replace(/^"(.*)"$/, '$1');
    dir = next.startsWith('/') ? next : `${dir ?? ''}/${next}`.replace(/\/+/g, '/');
  }
  return dir;
}

// About 3k tokens per observation: enough for a listing or a file's head, and a 1 MiB output
// cannot flood the context.
export const PROMPT_OUTPUT_LIMIT = 12_000;

export function truncateForPrompt(text: string, limit = PROMPT_OUTPUT_LIMIT): string {
  if (text.length <= limit) return text;
  const head = text.slice(0, Math.ceil(limit / 2));
  const tail = text.slice(text.length - Math.floor(limit / 2));
  return `${head}\n[... ${text.length - head.length - tail.length} characters omitted from the middle of this output ...]\n${tail}`;
}

// What the model reads back for one command: the (truncated) output, then how it ended.
export function renderObservation(result: CommandResult): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  const ending = result.timedOut
    ? `[the command was killed: it timed out after ${seconds} s]`
    : result.exitCode === null
      ? `[the command was killed after ${seconds} s]`
      : `[exit code ${result.exitCode}]`;
  const output = result.output === '' ? '(no output)' : truncateForPrompt(result.output);
  return `${output}\n${ending}`;
}
