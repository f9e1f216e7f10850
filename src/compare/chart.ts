/**
 * The benchmark's chart as SVG text, written by hand: cumulative deals decided (y) against the
 * node budget (x, logarithmic), one step line per heuristic — the curve solver papers draw.
 * A point (x, y) of a line says: with a budget of x nodes, this heuristic decides y deals.
 */
import { type BenchCell, decidedByNodes } from './stats.js';
import { esc, niceStep, r1, textWidth } from '../util/svg.js';

export interface ChartSeries {
  readonly label: string;
  readonly cells: readonly BenchCell[];
}

export interface ChartInput {
  readonly title: string;
  readonly subtitle: string;
  readonly deals: number;
  /** The node budget (the right end of the x axis), or null (time budget only: the largest count seen). */
  readonly maxNodes: number | null;
  readonly series: readonly ChartSeries[];
}

/** Tableau 10: distinct on screen and in print; after ten colours the dashes tell lines apart. */
const COLOURS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];


/** 1, 10, 100, 1k, 10k, 100k, 1M, 10M. */
function powerLabel(v: number): string {
  if (v >= 1e9) return `${v / 1e9}G`;
  if (v >= 1e6) return `${v / 1e6}M`;
  if (v >= 1e3) return `${v / 1e3}k`;
  return String(v);
}


/** A legend line: the label (its end when long), the deals decided, `*` for the baseline. */
function legendLabel(label: string, n: number, baseline: boolean): string {
  return `${label.length > 22 ? `…${label.slice(-21)}` : label} (${n})${baseline ? ' *' : ''}`;
}

const LEGEND_TITLE = 'heuristic (decided)';
const LEGEND_NOTE = '* the baseline (first)';

export function chartSvg(c: ChartInput): string {
  const H = 520;
  const left = 78;
  const top = 62;
  const bottom = 62;
  const pw = 572;
  const ph = H - top - bottom;

  const curves = c.series.map((s) => decidedByNodes(s.cells));
  // The legend's width sets the right margin; the title's and subtitle's, at least the chart's width.
  const right = Math.max(
    210,
    Math.ceil(28 + Math.max(textWidth(LEGEND_TITLE, 12, true), textWidth(LEGEND_NOTE, 11), ...c.series.map((s, i) => 32 + textWidth(legendLabel(s.label, curves[i]!.length, i === 0), 12)))),
  );
  const W = Math.ceil(Math.max(left + pw + right, left + 20 + textWidth(c.title, 16, true), left + 20 + textWidth(c.subtitle, 12)));
  let minNodes = Infinity;
  let maxSeen = 1;
  let maxDecided = 0;
  for (const cv of curves) {
    if (cv.length > 0) {
      minNodes = Math.min(minNodes, cv[0]!);
      maxSeen = Math.max(maxSeen, cv[cv.length - 1]!);
    }
    maxDecided = Math.max(maxDecided, cv.length);
  }
  const xMax = Math.max(c.maxNodes ?? maxSeen, maxSeen, 10);
  const xMin = Math.min(10 ** Math.floor(Math.log10(Number.isFinite(minNodes) ? Math.max(1, minNodes) : 1)), xMax / 10);
  const lx0 = Math.log10(xMin);
  const lx1 = Math.log10(xMax);
  const X = (v: number): number => left + ((Math.log10(Math.max(v, xMin)) - lx0) / (lx1 - lx0)) * pw;
  const yStep = niceStep(Math.max(maxDecided, 1), 6, 1);
  const yMax = Math.max(yStep, Math.ceil(Math.max(maxDecided, 1) / yStep) * yStep);
  const Y = (v: number): number => top + ph - (v / yMax) * ph;

  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="${left}" y="24" font-size="16" font-weight="bold">${esc(c.title)}</text>`);
  out.push(`<text x="${left}" y="44" font-size="12" fill="#555">${esc(c.subtitle)}</text>`);

  // Grid and x ticks: decades labelled, 2..9 as minor ticks.
  out.push('<g stroke="#e6e6e6" stroke-width="1">');
  for (let d = Math.floor(lx0); d <= Math.ceil(lx1); d++) {
    for (let m = 1; m <= 9; m++) {
      const v = m * 10 ** d;
      if (v < xMin * 0.999 || v > xMax * 1.001) continue;
      const x = r1(X(v));
      out.push(`<line x1="${x}" y1="${top}" x2="${x}" y2="${top + ph}"${m === 1 ? ' stroke="#cfcfcf"' : ''}/>`);
    }
  }
  for (let v = 0; v <= yMax; v += yStep) out.push(`<line x1="${left}" y1="${r1(Y(v))}" x2="${left + pw}" y2="${r1(Y(v))}"/>`);
  out.push('</g>');

  // Axes.
  out.push(`<g stroke="#333" stroke-width="1" fill="none"><line x1="${left}" y1="${top + ph}" x2="${left + pw}" y2="${top + ph}"/><line x1="${left}" y1="${top}" x2="${left}" y2="${top + ph}"/></g>`);
  out.push('<g fill="#333" text-anchor="middle">');
  for (let d = Math.ceil(lx0 - 1e-9); d <= Math.floor(lx1 + 1e-9); d++) {
    const v = 10 ** d;
    out.push(`<line x1="${r1(X(v))}" y1="${top + ph}" x2="${r1(X(v))}" y2="${top + ph + 5}" stroke="#333"/>`);
    out.push(`<text x="${r1(X(v))}" y="${top + ph + 19}">${powerLabel(v)}</text>`);
  }
  if (Math.abs(Math.log10(xMax) - Math.round(Math.log10(xMax))) > 1e-9) {
    // The budget itself, when it is not a power of ten.
    out.push(`<line x1="${r1(X(xMax))}" y1="${top + ph}" x2="${r1(X(xMax))}" y2="${top + ph + 5}" stroke="#333"/>`);
    out.push(`<text x="${r1(X(xMax))}" y="${top + ph + 19}">${powerLabel(xMax)}</text>`);
  }
  out.push(`<text x="${left + pw / 2}" y="${H - 16}" font-size="13">node budget per search (log scale)${c.maxNodes !== null ? ` — the run's budget: ${c.maxNodes.toLocaleString('en-US')} nodes` : ''}</text>`);
  out.push('</g>');
  out.push('<g fill="#333" text-anchor="end">');
  for (let v = 0; v <= yMax; v += yStep) {
    out.push(`<line x1="${left - 5}" y1="${r1(Y(v))}" x2="${left}" y2="${r1(Y(v))}" stroke="#333"/>`);
    out.push(`<text x="${left - 8}" y="${r1(Y(v) + 4)}">${v}</text>`);
  }
  out.push('</g>');
  const yl = top + ph / 2;
  out.push(`<text x="20" y="${yl}" font-size="13" text-anchor="middle" transform="rotate(-90 20 ${yl})">deals decided (of ${c.deals})</text>`);

  // The lines: steps up at each decided deal's node count. The baseline (first) is drawn last, on top.
  const drawOrder = c.series.map((s, i) => ({ s, i }));
  drawOrder.push(drawOrder.shift()!);
  drawOrder.forEach(({ s, i }) => {
    const cv = curves[i]!;
    const colour = COLOURS[i % COLOURS.length]!;
    const dash = DASHES[Math.floor(i / COLOURS.length) % DASHES.length]!;
    let d = `M${r1(X(xMin))},${r1(Y(0))}`;
    let k = 0;
    while (k < cv.length) {
      const v = cv[k]!;
      let j = k;
      while (j < cv.length && cv[j] === v) j++;
      d += `H${r1(X(v))}V${r1(Y(j))}`;
      k = j;
    }
    d += `H${r1(X(xMax))}`;
    out.push(
      `<path d="${d}" fill="none" stroke="${colour}" stroke-width="${i === 0 ? 2.5 : 1.8}"${dash ? ` stroke-dasharray="${dash}"` : ''} stroke-linejoin="round"><title>${esc(s.label)}: ${cv.length} decided</title></path>`,
    );
  });

  // Legend: in the order of the deals decided at the budget, most first.
  const order = c.series.map((s, i) => ({ s, i, n: curves[i]!.length })).sort((a, b) => b.n - a.n || a.i - b.i);
  const lx = left + pw + 18;
  out.push(`<text x="${lx}" y="${top + 4}" font-weight="bold">${LEGEND_TITLE}</text>`);
  order.forEach(({ s, i, n }, row) => {
    const y = top + 24 + row * 20;
    const colour = COLOURS[i % COLOURS.length]!;
    const dash = DASHES[Math.floor(i / COLOURS.length) % DASHES.length]!;
    out.push(`<line x1="${lx}" y1="${y - 4}" x2="${lx + 26}" y2="${y - 4}" stroke="${colour}" stroke-width="${i === 0 ? 2.5 : 1.8}"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`);
    out.push(`<text x="${lx + 32}" y="${y}">${esc(legendLabel(s.label, n, i === 0))}</text>`);
  });
  out.push(`<text x="${lx}" y="${top + 24 + order.length * 20 + 8}" fill="#555" font-size="11">${LEGEND_NOTE}</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}
