/** Small helpers shared by the hand-written SVG charts (src/compare/chart.ts, src/experiment/chart.ts). */

/** Text safe inside an SVG element or attribute. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A coordinate rounded to a tenth, as short text. */
export const r1 = (x: number): string => (Math.round(x * 10) / 10).toString();

/**
 * A tick step of 1, 2 or 5 times a power of ten giving at most about `want` ticks up to `max`,
 * and at least `min` (1 for axes that count whole things).
 */
export function niceStep(max: number, want: number, min = 0): number {
  if (max <= 0) return Math.max(min, 1);
  const raw = max / want;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return Math.max(min, m * p);
  return Math.max(min, 10 * p);
}
