/** Small helpers shared by the hand-written SVG charts (src/compare/chart.ts, src/experiment/tactics-chart.ts, src/pages/*-chart.ts). */

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

/**
 * Advance widths, in thousandths of an em, of the characters from ' ' (32) to '~' (126): the
 * wider of Liberation Sans (the widths of Helvetica and Arial, the charts' font) and DejaVu Sans
 * (what Linux draws for a font it lacks), as Chromium measured them. A chart laid out from these
 * keeps its labels inside its frame in either font.
 */
const WIDTHS = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636,
  636, 636, 337, 337, 838, 838, 838, 556, 1015, 684, 686, 722, 770, 667, 611, 778, 752, 295, 500, 667, 557, 863, 748, 787,
  667, 787, 722, 667, 611, 732, 684, 989, 685, 667, 685, 390, 337, 390, 838, 556, 500, 613, 635, 550, 635, 615, 352, 635,
  634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
];

/** The same for the characters outside ASCII that the charts write. */
const OTHER_WIDTHS: Readonly<Record<string, number>> = { '·': 318, '−': 838, '–': 556, '—': 1000, 'Δ': 684, '±': 838, '…': 1000, '×': 838 };

/**
 * About how wide `text` is drawn at `size` px in the charts' font, erring wide: 3 % more, bold
 * 20 % more again, any other character as wide as 'M'. Where a label must fit its frame (the
 * right margin of a chart, the chart's width), the chart is laid out from this.
 */
export function textWidth(text: string, size: number, bold = false): number {
  let units = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    units += c >= 32 && c <= 126 ? WIDTHS[c - 32]! : (OTHER_WIDTHS[ch] ?? 863);
  }
  return (units / 1000) * size * 1.03 * (bold ? 1.2 : 1);
}
