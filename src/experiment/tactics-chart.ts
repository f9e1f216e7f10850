/**
 * The experiment's chart as SVG text, written by hand: one horizontal bar per row (its win
 * rate), grouped and coloured by group, with the 95 % interval as a whisker, each group's
 * baseline drawn as a dashed line across its group (and its bar outlined), and the rate and the
 * difference from the baseline written at the right — readable without the table. Groups whose
 * rates a 0-100 % axis flattens are drawn again below, on their own axis.
 */
import { type Group } from './matrix.js';
import { esc, niceStep, r1, textWidth } from '../util/svg.js';

const COLOURS: Readonly<Record<Group, string>> = { greedy: '#4e79a7', solver: '#59a14f', rules: '#f28e2b', sampling: '#b07aa1' };
const GROUP_TITLES: Readonly<Record<Group, string>> = {
  greedy: 'greedy player: pairing/spaces knobs',
  solver: 'solver (perfect information): tactics as restrictions',
  rules: 'solver, free game: rule variants (baseline: book rules)',
  sampling: 'sampling player: pairing/spaces knobs',
};


/** A difference in percentage points with its sign: +1.20, −0.35, ±0.00. */
const signed = (x: number): string => `${x > 0.00005 ? '+' : x < -0.00005 ? '−' : '±'}${Math.abs(100 * x).toFixed(2)}`;


/** What the chart reads of a row (a TacticsLine, or one read back from tactics.csv). */
export interface ChartLine {
  readonly row: { readonly group: Group; readonly name: string; readonly baseline: string };
  readonly counts: { readonly deals: number };
  readonly rate: number;
  readonly low: number;
  readonly high: number;
  readonly diff: { readonly diff: number; readonly low: number; readonly high: number } | null;
}

export interface TacticsChartInput {
  readonly title: string;
  /** One or two lines under the title. */
  readonly subtitle: readonly string[];
  readonly lines: readonly ChartLine[];
}

/** The text at the right of a row: its rate and its difference from the baseline with the interval. */
function rightLabel(l: ChartLine): string {
  const base = l.row.baseline === l.row.name;
  const d = l.diff ? ` · ${signed(l.diff.diff)} [${signed(l.diff.low)}, ${signed(l.diff.high)}]` : base ? ' · baseline' : '';
  return `${(100 * l.rate).toFixed(2)} %${d}`;
}

/** The chart's title and subtitle: the deals, the rows' counts (`greedy 1000000, solver 2000`), the solver's budget. */
export function tacticsTitles(from: number, size: string, counts: string, preset: string, nodes: number): { title: string; subtitle: string[] } {
  return {
    title: 'Limited: win rate by tactic and by rule',
    subtitle: [
      `book deals from ${from}, size ${size} · deals per row: ${counts || 'none'} · solver: preset ${preset}, ${nodes} nodes a deal`,
      "at the right: win rate · Δ, the difference from the group's baseline on the same deals in percentage points [its 95 % paired interval]",
    ],
  };
}

const LEGEND_BASELINE = "the group's baseline (its bar outlined)";
const RIGHT_HEADER = 'rate · Δ vs baseline (pp)';

/**
 * A group whose every interval ends below this share is drawn again in a second panel, at its
 * own scale, when the main axis runs past ZOOM_WHEN: on a 0-100 % axis a row at 0.4 % and one
 * at 8 % look the same.
 */
const ZOOM_BELOW = 0.15;
const ZOOM_WHEN = 0.5;

const TOP = 118;
const BOTTOM = 64;
const PITCH = 20;
const BAR_H = 13;
const GROUP_GAP = 30;
const PLOT_W = 570;
/** From one panel's plot bottom to the next panel's top: the axis labels and the panel's heading. */
const PANEL_GAP = 62;

type GroupRows = { group: Group; lines: ChartLine[] };

/** A panel's axis: its end and its tick step, from the highest interval end it shows. */
function axisOf(groups: readonly GroupRows[]): { xMax: number; step: number } {
  const maxHigh = Math.max(0.05, ...groups.flatMap((g) => g.lines.map((l) => l.high)));
  const step = niceStep(maxHigh * 100, 8) / 100;
  return { xMax: Math.ceil(maxHigh / step - 1e-9) * step, step };
}

const panelHeight = (groups: readonly GroupRows[]): number => Math.max(groups.reduce((a, g) => a + GROUP_GAP + g.lines.length * PITCH, 0) + 8, 40);

/**
 * One panel: grid, axis, and a bar, whisker and right-hand label a row, a dashed baseline a
 * group. The second panel's elements carry `zoom-` classes so that a row's `bar` is counted once.
 */
function drawPanel(out: string[], groups: readonly GroupRows[], byName: ReadonlyMap<string, ChartLine>, top: number, left: number, zoom: boolean): void {
  const { xMax, step } = axisOf(groups);
  const X = (v: number): number => left + (Math.max(0, Math.min(v, xMax)) / xMax) * PLOT_W;
  const plotBottom = top + panelHeight(groups);
  const cls = (name: string): string => (zoom ? `zoom-${name}` : name);
  out.push('<g stroke="#e6e6e6" stroke-width="1">');
  for (let v = 0; v <= xMax + 1e-9; v += step) out.push(`<line x1="${r1(X(v))}" y1="${top}" x2="${r1(X(v))}" y2="${plotBottom}"/>`);
  out.push('</g>');
  out.push(`<g stroke="#333" stroke-width="1"><line x1="${left}" y1="${plotBottom}" x2="${left + PLOT_W}" y2="${plotBottom}"/><line x1="${left}" y1="${top}" x2="${left}" y2="${plotBottom}"/></g>`);
  out.push('<g fill="#333" text-anchor="middle">');
  const digits = step < 0.01 ? 1 : 0;
  for (let v = 0; v <= xMax + 1e-9; v += step) {
    out.push(`<line x1="${r1(X(v))}" y1="${plotBottom}" x2="${r1(X(v))}" y2="${plotBottom + 5}" stroke="#333"/>`);
    out.push(`<text x="${r1(X(v))}" y="${plotBottom + 19}">${(100 * v).toFixed(digits)} %</text>`);
  }
  out.push('</g>');
  out.push(`<text x="${left + PLOT_W + 12}" y="${top - 6}" font-size="11" fill="#555">${esc(zoom ? 'rate' : RIGHT_HEADER)}</text>`);
  let y = top;
  for (const g of groups) {
    y += GROUP_GAP;
    const colour = COLOURS[g.group];
    out.push(`<text x="${left + 4}" y="${r1(y - 9)}" font-weight="bold" fill="${colour}">${esc(GROUP_TITLES[g.group])}</text>`);
    const bandTop = y;
    out.push(`<g class="${cls('group')}" data-group="${g.group}">`);
    for (const l of g.lines) {
      const cy = y + PITCH / 2;
      const base = l.row.baseline === l.row.name;
      out.push(`<text x="${left - 8}" y="${r1(cy + 4)}" text-anchor="end"${base ? ' font-weight="bold"' : ''}>${esc(l.row.name)}</text>`);
      const w = Math.max(0, X(l.rate) - left);
      out.push(
        `<rect class="${cls('bar')}" data-row="${esc(l.row.name)}" x="${left}" y="${r1(cy - BAR_H / 2)}" width="${r1(w)}" height="${BAR_H}" fill="${colour}" fill-opacity="${base ? 1 : 0.75}"${base ? ' stroke="#111" stroke-width="1.5"' : ''}><title>${esc(`${l.row.name}: ${(100 * l.rate).toFixed(2)} % (95 % interval ${(100 * l.low).toFixed(2)}–${(100 * l.high).toFixed(2)} %), ${l.counts.deals} deals`)}</title></rect>`,
      );
      const x0 = r1(X(l.low));
      const x1 = r1(X(l.high));
      out.push(
        `<g class="${cls('whisker')}" stroke="#222" stroke-width="1.3"><line x1="${x0}" y1="${r1(cy)}" x2="${x1}" y2="${r1(cy)}"/><line x1="${x0}" y1="${r1(cy - 4)}" x2="${x0}" y2="${r1(cy + 4)}"/><line x1="${x1}" y1="${r1(cy - 4)}" x2="${x1}" y2="${r1(cy + 4)}"/></g>`,
      );
      out.push(`<text x="${left + PLOT_W + 12}" y="${r1(cy + 4)}" font-size="11">${esc(zoom ? `${(100 * l.rate).toFixed(2)} %` : rightLabel(l))}</text>`);
      y += PITCH;
    }
    out.push('</g>');
    const baseline = byName.get(g.lines[0]!.row.baseline);
    if (baseline) {
      const bx = r1(X(baseline.rate));
      out.push(`<line class="${cls('baseline')}" x1="${bx}" y1="${r1(bandTop - 2)}" x2="${bx}" y2="${r1(y + 2)}" stroke="#222" stroke-width="1.5" stroke-dasharray="4 3"/>`);
    }
  }
}

export function tacticsSvg(c: TacticsChartInput): string {
  // The margins fit the longest row name (left) and the longest text at the right.
  const left = Math.max(120, Math.ceil(28 + Math.max(0, ...c.lines.map((l) => textWidth(l.row.name, 12, l.row.baseline === l.row.name)))));
  const right = Math.max(210, Math.ceil(22 + Math.max(textWidth(RIGHT_HEADER, 11), ...c.lines.map((l) => textWidth(rightLabel(l), 11)))));
  // Rows by group, in the order given.
  const groups: GroupRows[] = [];
  for (const l of c.lines) {
    const last = groups[groups.length - 1];
    if (last && last.group === l.row.group) last.lines.push(l);
    else groups.push({ group: l.row.group, lines: [l] });
  }
  const zoomed = axisOf(groups).xMax > ZOOM_WHEN ? groups.filter((g) => g.lines.every((l) => l.high < ZOOM_BELOW)) : [];
  const zoomTitle = zoomed.length > 0 ? `the rows whose intervals end below ${100 * ZOOM_BELOW} %, again at a finer scale` : '';
  const mainBottom = TOP + panelHeight(groups);
  const zoomTop = mainBottom + PANEL_GAP;
  const H = (zoomed.length > 0 ? zoomTop + panelHeight(zoomed) : mainBottom) + BOTTOM;
  const byName = new Map(c.lines.map((l) => [l.row.name, l]));
  // The legend's end, and the title's and subtitles': the chart is as wide as the widest of them.
  let legendEnd = 20;
  for (const g of groups) legendEnd += 30 + g.group.length * 7;
  legendEnd += 130 + 6 + textWidth(LEGEND_BASELINE, 12);
  const W = Math.ceil(
    Math.max(left + PLOT_W + right, legendEnd + 20, 40 + textWidth(c.title, 17, true), left + 4 + textWidth(zoomTitle, 13, true) + 20, ...c.subtitle.slice(0, 2).map((t) => 40 + textWidth(t, 12))),
  );

  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="20" y="26" font-size="17" font-weight="bold">${esc(c.title)}</text>`);
  c.subtitle.slice(0, 2).forEach((t, i) => out.push(`<text x="20" y="${46 + 16 * i}" font-size="12" fill="#555">${esc(t)}</text>`));

  // Legend: the groups shown, the whisker, the baseline.
  let lx = 20;
  const ly = 88;
  out.push('<g font-size="12">');
  for (const g of groups) {
    out.push(`<rect class="swatch" x="${lx}" y="${ly - 10}" width="12" height="12" fill="${COLOURS[g.group]}"/>`);
    out.push(`<text x="${lx + 17}" y="${ly}">${g.group}</text>`);
    lx += 30 + g.group.length * 7;
  }
  out.push(`<line x1="${lx}" y1="${ly - 4}" x2="${lx + 30}" y2="${ly - 4}" stroke="#222" stroke-width="1.5"/>`);
  out.push(`<line x1="${lx}" y1="${ly - 9}" x2="${lx}" y2="${ly + 1}" stroke="#222" stroke-width="1.5"/><line x1="${lx + 30}" y1="${ly - 9}" x2="${lx + 30}" y2="${ly + 1}" stroke="#222" stroke-width="1.5"/>`);
  out.push(`<text x="${lx + 36}" y="${ly}">95 % interval</text>`);
  lx += 130;
  out.push(`<line x1="${lx}" y1="${ly - 10}" x2="${lx}" y2="${ly + 2}" stroke="#222" stroke-width="1.5" stroke-dasharray="4 3"/>`);
  out.push(`<text x="${lx + 6}" y="${ly}">${esc(LEGEND_BASELINE)}</text>`);
  out.push('</g>');

  drawPanel(out, groups, byName, TOP, left, false);
  if (c.lines.length === 0) out.push(`<text x="${left + 10}" y="${TOP + 24}" fill="#555">no finished rows yet</text>`);
  if (zoomed.length > 0) {
    out.push(`<text class="zoom-title" x="${left + 4}" y="${zoomTop - 14}" font-size="13" font-weight="bold" fill="#333">${esc(zoomTitle)}</text>`);
    drawPanel(out, zoomed, byName, zoomTop, left, true);
  }
  out.push('<g fill="#333" text-anchor="middle">');
  out.push(`<text x="${left + PLOT_W / 2}" y="${H - 30}" font-size="13">win rate: won / deals</text>`);
  out.push(`<text x="${left + PLOT_W / 2}" y="${H - 13}" font-size="11" fill="#555">solver rows: an unknown deal counts as not won; the whisker's high end counts it as won</text>`);
  out.push('</g>');
  out.push('</svg>');
  return out.join('\n') + '\n';
}
