// Number and duration formatting for the enrichment panel.

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** A moment later today or on another day, as the user reads it ("Thu 09:00"). */
export function moment(epochMs: number): string {
  return new Date(epochMs).toLocaleString('en-US', {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
}

export function duration(seconds: number | null): string {
  if (seconds === null) return 'estimating…';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
