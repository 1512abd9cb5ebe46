// Size limits applied while reading tasks, so a hostile or accidental input
// (a stray dataset, a decompression bomb) is refused before it fills memory.

export interface ImportLimits {
  maxFileBytes: number;
  maxTaskBytes: number;
  maxFilesPerTask: number;
  maxArchiveBytes: number; // total uncompressed bytes read from one archive
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: ImportLimits = {
  maxFileBytes: 10 * MiB,
  maxTaskBytes: 50 * MiB,
  maxFilesPerTask: 10_000,
  maxArchiveBytes: 512 * MiB,
};

export function resolveLimits(overrides: Partial<ImportLimits> = {}): ImportLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}

export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}
