// The web app the dashboard and browser benchmarks measure: the committed code at HEAD, built in a
// throwaway git worktree, so that uncommitted work in a shared checkout neither breaks the build
// (next build type-checks every file) nor enters the figures.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const BENCH_DIST_DIR = '.next-bench';

export interface WebBuild {
  dir: string; // where to run `next start`
  distDir: string;
  commit: string;
  remove: () => void;
}

export function buildCommittedWeb(progress: (m: string) => void): WebBuild {
  const repo = resolve('.');
  // Inside the checkout's gitignored .envolve/, on the same filesystem as node_modules.
  mkdirSync(join(repo, '.envolve'), { recursive: true });
  const dir = mkdtempSync(join(repo, '.envolve', 'bench-web-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, 'HEAD'], { stdio: 'ignore' });
  const remove = () => execFileSync('git', ['worktree', 'remove', '--force', dir], { stdio: 'ignore' });
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    // Hard links, not a symlink: Turbopack resolves packages only inside the project root. The real
    // directory, for a checkout whose node_modules is itself a symlink (a git worktree sharing one).
    execFileSync('cp', ['-al', realpathSync(join(repo, 'node_modules')), join(dir, 'node_modules')]);
    // The Prisma clients are generated (gitignored), from the same schema.
    for (const generated of ['lib/db/generated', 'lib/db/generated-pg']) cpSync(join(repo, generated), join(dir, generated), { recursive: true });
    progress(`building ${commit.slice(0, 12)} in ${dir}`);
    execFileSync('npx', ['next', 'build'], {
      cwd: dir,
      env: { ...process.env, ENVOLVE_NEXT_DIST_DIR: BENCH_DIST_DIR },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return { dir, distDir: BENCH_DIST_DIR, commit, remove };
  } catch (err) {
    remove();
    throw err;
  }
}
