// Display helpers shared by server and client components. Output must not depend
// on the viewer's locale or time zone, or server HTML and hydration disagree.

export function shortHash(hash: string, length = 12): string {
  return hash.replace(/^sha256:/, '').slice(0, length);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds % 60)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

// "2025-11-29 07:47 UTC": sortable, unambiguous, identical on server and client.
export function formatTimestamp(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function formatReward(reward: number | null): string {
  if (reward === null) return '—';
  return Number.isInteger(reward) ? String(reward) : reward.toFixed(3);
}
