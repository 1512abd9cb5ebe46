// What a script or a Dockerfile's RUN lines download, and from where: pip, uv, npm, go, cargo,
// apt, and curl/wget/ADD URLs. Read from the text (continuation lines joined), so a build can
// check each host before it starts instead of a package manager retrying DNS for minutes, and
// import can say which tasks need a package index. A tool told where to fetch from (an index
// URL, --no-index) names that host or nothing.
import { lookup } from 'node:dns/promises';
import type { BuildMirrors } from './build-mirrors.ts';
import { MIRROR_SETTINGS } from './build-mirrors.ts';

export interface FetchNeed {
  tool: string; // pip, uv, npm, go, cargo, apt, curl, wget, ADD
  host: string;
  setting?: string; // the setting that points this tool at a mirror
  // Checked before a build: the command always fetches from this host. Not so for go and cargo
  // (vendored modules fetch nothing) nor apt (the host is whatever the base image's sources say).
  certain: boolean;
}

interface Rule {
  tool: string;
  command: RegExp;
  host: string;
  mirror?: keyof BuildMirrors;
  ownIndex?: RegExp; // the command names its own source
  certain?: boolean;
}

const RULES: Rule[] = [
  {
    tool: 'pip',
    command: /\b(pip3?|python3?(\.\d+)? -m pip) install\b/,
    host: 'pypi.org',
    mirror: 'pipIndexUrl',
    ownIndex: /\s(--index-url|-i|--no-index)\b/,
    certain: true,
  },
  {
    tool: 'uv',
    command: /\b(uv (pip install|sync|add|tool install)|uvx)\b/,
    host: 'pypi.org',
    mirror: 'pipIndexUrl',
    ownIndex: /\s(--index-url|--default-index|--offline)\b/,
    certain: true,
  },
  {
    tool: 'npm',
    command: /\b(npm (install|i|ci)|npx|yarn( install| add)?|pnpm (install|add))\b/,
    host: 'registry.npmjs.org',
    mirror: 'npmRegistry',
    ownIndex: /\s--registry\b/,
    certain: true,
  },
  { tool: 'go', command: /\bgo (get|install|mod download|build|test|run)\b/, host: 'proxy.golang.org', mirror: 'goProxy' },
  { tool: 'cargo', command: /\bcargo (build|fetch|install|test|run|vendor)\b/, host: 'index.crates.io', ownIndex: /\s(--offline|--frozen)\b/ },
  { tool: 'apt', command: /\bapt(-get)? install\b/, host: 'deb.debian.org' },
];

const URL_FETCH = /\b(curl|wget)\b[^|;&]*?\bhttps?:\/\/([^/\s"':]+)/g;
const ADD_URL = /^\s*ADD\s+(?:--\S+\s+)*https?:\/\/([^/\s"':]+)/i;

function joinContinuations(text: string): string[] {
  return text.replace(/\\\r?\n/g, ' ').split('\n');
}

function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).hostname : undefined;
  } catch {
    return undefined;
  }
}

/** What the lines download. `dockerfile`: only RUN and ADD lines count. */
export function fetchNeeds(text: string, opts: { dockerfile?: boolean; mirrors?: BuildMirrors } = {}): FetchNeed[] {
  const needs = new Map<string, FetchNeed>();
  const add = (need: FetchNeed) => needs.set(`${need.tool} ${need.host}`, need);
  for (const line of joinContinuations(text)) {
    const add_ = opts.dockerfile ? ADD_URL.exec(line) : null;
    if (add_?.[1]) add({ tool: 'ADD', host: add_[1], setting: MIRROR_SETTINGS.httpsProxy, certain: true });
    if (opts.dockerfile && !/^\s*RUN\b/i.test(line)) continue;
    for (const rule of RULES) {
      if (!rule.command.test(line) || rule.ownIndex?.test(line)) continue;
      const mirrored = rule.mirror ? hostOf(opts.mirrors?.[rule.mirror]) : undefined;
      const setting = rule.mirror && !mirrored ? MIRROR_SETTINGS[rule.mirror] : undefined;
      add({ tool: rule.tool, host: mirrored ?? rule.host, ...(setting ? { setting } : {}), certain: Boolean(rule.certain) });
    }
    for (const match of line.matchAll(URL_FETCH)) add({ tool: match[1]!, host: match[2]!, setting: MIRROR_SETTINGS.httpsProxy, certain: true });
  }
  return [...needs.values()];
}

export function describeNeed(need: FetchNeed): string {
  return `${need.host} (${need.tool})`;
}

const LOOKUP_TIMEOUT_MS = 5000;

async function resolves(host: string): Promise<boolean> {
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), LOOKUP_TIMEOUT_MS).unref());
  return Promise.race([
    lookup(host).then(
      () => true,
      () => false,
    ),
    timeout,
  ]);
}

// The hosts a build will certainly fetch from that do not resolve here. Builds run on the host
// network or the engine's bridge, which resolve as this machine does. Behind a proxy the proxy
// resolves them, so nothing is checked.
export async function unresolvedNeeds(needs: FetchNeed[], mirrors: BuildMirrors): Promise<FetchNeed[]> {
  if (mirrors.httpProxy || mirrors.httpsProxy) return [];
  const certain = needs.filter((n) => n.certain);
  const ok = await Promise.all(certain.map((n) => resolves(n.host)));
  return certain.filter((_, i) => !ok[i]);
}

// One sentence: what the build would fetch from where, and the setting that points it elsewhere.
export function unreachableMessage(needs: FetchNeed[], why: string): string {
  const fixes = [...new Set(needs.flatMap((n) => (n.setting ? [`${n.setting} for ${n.tool}`] : [])))];
  return `the build fetches from ${needs.map(describeNeed).join(', ')}, ${why}` + (fixes.length ? `; point it at a mirror with ${fixes.join(', ')}` : '');
}
