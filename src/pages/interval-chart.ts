/**
 * The win-rate estimator's chart as SVG text: one line an estimate, on a shared axis (0-100 %
 * for rates, or points for differences), showing the estimate with the undecided deals counted
 * as lost and as won (a bar: the doubt no sampling removes) and the 95 % interval around it (a
 * whisker: that doubt plus the sampling error). Laid out from the labels' widths.
 */
import { esc, r1, textWidth } from '../util/svg.js';

export interface IntervalLine {
  readonly label: string;
  /** The estimate, undecided deals as lost and as won. */
  readonly low: number;
  readonly high: number;
  /** The 95 % interval. */
  readonly ciLow: number;
  readonly ciHigh: number;
}

export interface IntervalChartInput {
  readonly title: string;
  readonly lines: readonly IntervalLine[];
  /** `rate`: a 0-100 % axis; `difference`: a symmetric axis in points, wide enough for every interval. */
  readonly kind: 'rate' | 'difference';
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}`;

export function intervalSvg(c: IntervalChartInput): string {
  const unit = c.kind === 'rate' ? ' %' : ' points';
  // The bar's range named too, not only drawn: the estimate, then its 95 % interval.
  const texts = c.lines.map((l) => `${pct(l.low)}-${pct(l.high)}${unit} · 95 %: ${pct(l.ciLow)} to ${pct(l.ciHigh)}${unit}`);
  const labelW = Math.max(60, ...c.lines.map((l) => textWidth(l.label, 12)));
  const textW = Math.max(...texts.map((t) => textWidth(t, 12)));
  // The axis: 0-100 % for rates; for differences the widest interval, rounded out to 10 points.
  const reach = c.kind === 'rate' ? 1 : Math.max(0.1, Math.ceil(10 * Math.max(...c.lines.map((l) => Math.max(-l.ciLow, l.ciHigh)))) / 10);
  const [lo, hi] = c.kind === 'rate' ? [0, 1] : [-reach, reach];
  const left = 20 + labelW + 14;
  const pw = 480;
  const right = left + pw + 16 + textW + 20;
  const legend = 'bar: undecided deals counted as lost .. as won; whisker: 95 % interval';
  const W = Math.ceil(Math.max(right, 20 + textWidth(c.title, 15, true) + 20, 20 + textWidth(legend, 11) + 20));
  const rowH = 26;
  const top = 50;
  const ay = top + rowH * c.lines.length + 6;
  const H = ay + 56;
  const X = (v: number): number => left + ((Math.max(lo, Math.min(hi, v)) - lo) / (hi - lo)) * pw;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="20" y="24" font-size="15" font-weight="bold">${esc(c.title)}</text>`);
  if (c.kind === 'difference') out.push(`<line x1="${r1(X(0))}" y1="${top - 8}" x2="${r1(X(0))}" y2="${ay}" stroke="#999" stroke-dasharray="3,3"/>`);
  c.lines.forEach((l, i) => {
    const y = top + rowH * i + rowH / 2;
    out.push(`<text x="${20 + labelW}" y="${y + 4}" text-anchor="end">${esc(l.label)}</text>`);
    out.push(`<rect class="bar" x="${r1(X(l.low))}" y="${y - 6}" width="${r1(Math.max(1, X(l.high) - X(l.low)))}" height="12" fill="#90caf9"><title>${esc(`${l.label}: ${pct(l.low)} .. ${pct(l.high)}${unit}`)}</title></rect>`);
    out.push(
      `<g class="whisker" stroke="#222" stroke-width="1.5"><line x1="${r1(X(l.ciLow))}" y1="${y}" x2="${r1(X(l.ciHigh))}" y2="${y}"/>` +
        `<line x1="${r1(X(l.ciLow))}" y1="${y - 6}" x2="${r1(X(l.ciLow))}" y2="${y + 6}"/><line x1="${r1(X(l.ciHigh))}" y1="${y - 6}" x2="${r1(X(l.ciHigh))}" y2="${y + 6}"/></g>`,
    );
    out.push(`<text x="${left + pw + 16}" y="${y + 4}">${esc(texts[i]!)}</text>`);
  });
  out.push(`<line x1="${left}" y1="${ay}" x2="${left + pw}" y2="${ay}" stroke="#333"/>`);
  out.push('<g fill="#333" text-anchor="middle" font-size="11">');
  for (let k = 0; k <= 10; k++) {
    const v = lo + ((hi - lo) * k) / 10;
    out.push(`<line x1="${r1(X(v))}" y1="${ay}" x2="${r1(X(v))}" y2="${ay + 5}" stroke="#333"/>`);
    out.push(`<text x="${r1(X(v))}" y="${ay + 18}">${Math.round(v * 100)}${c.kind === 'rate' ? ' %' : ''}</text>`);
  }
  out.push('</g>');
  out.push(`<text x="20" y="${ay + 42}" font-size="11" fill="#555">${esc(legend)}</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}
