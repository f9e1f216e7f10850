/** Lengths of time as people read them: a progress line's clock and a report's wall time. */

/** 0:42, 12:05, 1:02:03: a clock for a progress line ('--' when not known). */
export function formatDuration(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '--';
  const t = Math.round(s);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = t % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}` : `${m}:${String(sec).padStart(2, '0')}`;
}

/** 12.3 s, 4 min 05 s, 2 h 03 min. */
export function wallTime(s: number): string {
  if (s < 60) return `${s.toFixed(1)} s`;
  const t = Math.round(s);
  if (t < 3600) return `${Math.floor(t / 60)} min ${String(t % 60).padStart(2, '0')} s`;
  return `${Math.floor(t / 3600)} h ${String(Math.floor((t % 3600) / 60)).padStart(2, '0')} min`;
}
