/** How the history page writes times, durations and sizes: short, and the same everywhere. */

export function formatTime(date: Date | null | undefined): string {
  return date ? date.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC') : '';
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** Milliseconds between two times; null while the second is not there. */
export function between(start: Date, end: Date | null | undefined): number | null {
  return end ? end.getTime() - start.getTime() : null;
}
