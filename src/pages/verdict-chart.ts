/**
 * A batch's chart as SVG text: the share of deals of each verdict as one stacked bar, and under
 * it the win rate on a 0-100 % axis with its 95 % interval as a whisker (Wilson; an unknown deal
 * counted as lost for the low end, as won for the high end). Laid out from the labels' widths.
 */
import { esc, r1, textWidth } from '../util/svg.js';

export interface VerdictChartInput {
  readonly title: string;
  readonly deals: number;
  /** The verdicts in the order drawn, with their counts. */
  readonly parts: readonly { readonly label: string; readonly count: number; readonly colour: string }[];
  /** won / deals and its interval, or null when there are no deals. */
  readonly rate: { readonly point: number; readonly low: number; readonly high: number } | null;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

export function verdictSvg(c: VerdictChartInput): string {
  const left = 20;
  const pw = 600;
  const legend = c.parts.map((p) => `${p.label} ${p.count} (${c.deals > 0 ? pct(p.count / c.deals) : '--'})`);
  const rateLabel = c.rate ? `win rate ${pct(c.rate.point)}, 95 % interval ${pct(c.rate.low)} – ${pct(c.rate.high)}` : 'no deals';
  let legendEnd = left;
  for (const l of legend) legendEnd += 22 + textWidth(l, 12) + 18;
  const W = Math.ceil(Math.max(left + pw + 40, legendEnd + 20, left + 20 + textWidth(c.title, 15, true), left + 20 + textWidth(rateLabel, 12)));
  const H = 196;
  const X = (v: number): number => left + Math.max(0, Math.min(1, v)) * pw;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="${left}" y="24" font-size="15" font-weight="bold">${esc(c.title)}</text>`);
  // The stacked bar.
  let at = 0;
  for (const p of c.parts) {
    const w = c.deals > 0 ? p.count / c.deals : 0;
    if (w > 0)
      out.push(`<rect class="part" x="${r1(X(at))}" y="40" width="${r1(X(at + w) - X(at))}" height="26" fill="${p.colour}"><title>${esc(`${p.label}: ${p.count} of ${c.deals}`)}</title></rect>`);
    at += w;
  }
  out.push(`<rect x="${left}" y="40" width="${pw}" height="26" fill="none" stroke="#333"/>`);
  // Legend.
  let lx = left;
  c.parts.forEach((p, i) => {
    out.push(`<rect x="${r1(lx)}" y="78" width="12" height="12" fill="${p.colour}" stroke="#333" stroke-width="0.5"/>`);
    out.push(`<text x="${r1(lx + 17)}" y="89">${esc(legend[i]!)}</text>`);
    lx += 22 + textWidth(legend[i]!, 12) + 18;
  });
  // The axis and the interval.
  const ay = 150;
  out.push(`<line x1="${left}" y1="${ay}" x2="${left + pw}" y2="${ay}" stroke="#333"/>`);
  out.push('<g fill="#333" text-anchor="middle" font-size="11">');
  for (let v = 0; v <= 1.0001; v += 0.1) {
    out.push(`<line x1="${r1(X(v))}" y1="${ay}" x2="${r1(X(v))}" y2="${ay + 5}" stroke="#333"/>`);
    out.push(`<text x="${r1(X(v))}" y="${ay + 18}">${Math.round(v * 100)} %</text>`);
  }
  out.push('</g>');
  if (c.rate) {
    const y = ay - 16;
    out.push(
      `<g class="whisker" stroke="#222" stroke-width="1.5"><line x1="${r1(X(c.rate.low))}" y1="${y}" x2="${r1(X(c.rate.high))}" y2="${y}"/>` +
        `<line x1="${r1(X(c.rate.low))}" y1="${y - 5}" x2="${r1(X(c.rate.low))}" y2="${y + 5}"/><line x1="${r1(X(c.rate.high))}" y1="${y - 5}" x2="${r1(X(c.rate.high))}" y2="${y + 5}"/></g>`,
    );
    out.push(`<circle cx="${r1(X(c.rate.point))}" cy="${y}" r="4.5" fill="#2e7d32" stroke="#fff"/>`);
  }
  out.push(`<text x="${left}" y="${ay - 30}" fill="#333">${esc(rateLabel)}</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}
