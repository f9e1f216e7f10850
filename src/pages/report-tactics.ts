/** The report of `limited experiment tactics`: tactics.csv and tactics.md, with the rows' sidecars. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Rules, BOOK, UserError } from '../game/index.js';
import { parseCsvLine } from '../batch/csv.js';
import { type Meta, readMeta } from '../batch/sidecar.js';
import { type ChartLine, tacticsSvg, tacticsTitles } from '../experiment/tactics-chart.js';
import { type Group } from '../experiment/matrix.js';
import { wallTime } from '../util/duration.js';
import { type Linker, FIRST_DEALS, dealLinks, dealSettings, dealsByVerdict, linkedRows } from './deal-links.js';
import { escapeHtml as h } from './page.js';
import { facts, mdInline, pct, signed, table } from './report-html.js';

interface TacticsRow extends ChartLine {
  readonly cells: Record<string, string>;
}

function readTacticsCsv(file: string): TacticsRow[] {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/).filter((x) => x !== '');
  if (lines.length === 0) throw new UserError(`${file} is empty`);
  const head = parseCsvLine(lines[0]!);
  return lines.slice(1).map((line, i) => {
    const cols = parseCsvLine(line);
    const cells: Record<string, string> = {};
    head.forEach((k, j) => (cells[k] = cols[j] ?? ''));
    const num = (k: string): number => {
      const v = Number(cells[k]);
      if (cells[k] === '' || !Number.isFinite(v)) throw new UserError(`${file}, line ${i + 2}: '${k}' is not a number: '${cells[k] ?? ''}'`);
      return v;
    };
    return {
      cells,
      row: { group: cells['group'] as Group, name: cells['row'] ?? '', baseline: cells['baseline'] ?? '' },
      counts: { deals: num('deals') },
      rate: num('win_rate'),
      low: num('ci_low'),
      high: num('ci_high'),
      diff: cells['diff'] ? { diff: num('diff'), low: num('diff_low'), high: num('diff_high') } : null,
    };
  });
}

/** tactics.md's header lines (`- command: ...`) and its paragraph on the method. */
function readTacticsMd(file: string): { header: [string, string][]; method: string } {
  if (!existsSync(file)) return { header: [], method: '' };
  const header: [string, string][] = [];
  let method = '';
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const m = /^- ([a-z ]+): (.*)$/.exec(line);
    if (m) header.push([m[1]!, m[2]!]);
    else if (line.startsWith('Win rate:')) method = line;
  }
  return { header, method };
}


/**
 * The experiment's chart drawn again from tactics.csv and the rows' sidecars, as `limited
 * experiment tactics` draws it: with the chart code of this version.
 */
export function tacticsChart(dir: string): string {
  const rows = readTacticsCsv(join(dir, 'tactics.csv'));
  return tacticsChartOf(rows, new Map(rows.map((r) => [r.row.name, readMeta(join(dir, `${r.row.name}.csv`))])));
}

function tacticsChartOf(rows: readonly TacticsRow[], metas: ReadonlyMap<string, Meta | null>): string {
  const solverMeta = [...metas.values()].find((m) => m && m.job.kind === 'solve');
  const counts = [...new Set(rows.map((r) => `${r.row.group} ${r.counts.deals}`))].join(', ');
  const titles = tacticsTitles(
    Number(rows[0]?.cells['deals_from'] ?? 1),
    solverMeta?.job.size ?? [...metas.values()].find((m) => m)?.job.size ?? '',
    counts,
    solverMeta?.job.solver.preset ?? 'portfolio',
    solverMeta?.job.budgets.maxNodes ?? 0,
  );
  return tacticsSvg({ ...titles, lines: rows });
}

export async function tacticsReport(dir: string, l: Linker): Promise<string> {
  const rows = readTacticsCsv(join(dir, 'tactics.csv'));
  const md = readTacticsMd(join(dir, 'tactics.md'));
  const metas = new Map(rows.map((r) => [r.row.name, readMeta(join(dir, `${r.row.name}.csv`))]));
  const chart = tacticsChartOf(rows, metas);
  const num = new Set([4, 5, 6, 7, 8, 9, 11]);
  const head = ['group', 'row', 'tactics', 'rules (other than book)', 'deals', 'won', 'lost', 'unsolvable', 'unknown', 'win rate', '95 % CI', 'Δ vs baseline at the budget (pp)', '95 % CI of Δ'];
  const body: string[][] = [];
  const linked: [string, string][] = [];
  for (const r of rows) {
    const c = r.cells;
    const meta = metas.get(r.row.name) ?? null;
    if (meta && meta.job.kind === 'solve') {
      const csv = join(dir, `${r.row.name}.csv`);
      const by = existsSync(csv) ? await dealsByVerdict(csv) : null;
      const first = Array.from({ length: Math.min(FIRST_DEALS, meta.part.count) }, (_, i) => meta.part.from + i);
      linked.push([r.row.name, dealLinks(l, dealSettings(meta), by, first)]);
    }
    const base = r.row.baseline === r.row.name;
    body.push([
      h(c['group'] ?? ''), base ? `<b>${h(r.row.name)}</b> (baseline)` : h(r.row.name), h(c['tactics'] ?? ''), h(rulesBesideBook(c['rules'] ?? '')),
      h(c['deals'] ?? ''), h(c['won'] ?? ''), h(c['lost'] ?? ''), h(c['unsolvable'] ?? ''), h(c['unknown'] ?? ''), pct(r.rate),
      `${pct(r.low)} – ${pct(r.high)}`, r.diff ? signed(r.diff.diff) : '', r.diff ? `${signed(r.diff.low)} to ${signed(r.diff.high)}` : '',
    ]);
  }
  // The solver rows with perfect information (the win-rate estimator), when the run has them.
  const perfect = rows.filter((r) => (r.cells['pi_low'] ?? '') !== '');
  const span = (a: string, b: string, f: (x: number) => string): string => `${f(Number(a))} to ${f(Number(b))}`;
  const perfectTable =
    perfect.length === 0
      ? ''
      : '<h3>The solver rows with perfect information</h3><p>Each 95 % interval holds the sampling error of phase 2 and the deals still undecided, counted both ways.</p>' +
        `<div class="wide">${table(
          ['row', 'deals', 'undecided after phase 1', 'sampled', 'still undecided', 'win rate, 95 %', 'difference from solver-free, 95 % (pp)'],
          perfect.map((r) => {
            const c = r.cells;
            return [
              h(r.row.name), h(c['deals'] ?? ''), h(c['pi_undecided'] ?? ''), h(c['pi_sampled'] ?? ''), h(c['pi_still_undecided'] ?? ''),
              span(c['pi_low']!, c['pi_high']!, (x) => pct(x)),
              (c['pi_effect_low'] ?? '') === '' ? '' : span(c['pi_effect_low']!, c['pi_effect_high']!, signed),
            ];
          }),
          new Set([1, 2, 3, 4]),
        )}</div>`;
  const header = new Map(md.header);
  const method = facts([
    ['command', header.has('command') ? mdInline(header.get('command')!) : '(tactics.md not found)'],
    ['deals', mdInline(header.get('deals') ?? '')],
    ['total wall time', mdInline(header.get('total wall time of the rows') ?? '')],
  ]);
  const machine = facts([
    ['machine', mdInline(header.get('machine') ?? '')],
    ['date', mdInline(header.get('date') ?? '')],
    ['commit', mdInline(header.get('commit') ?? '')],
  ]);
  const seconds = [...metas.values()].reduce((a, m) => a + (m ? m.sessions.reduce((b, x) => b + x.seconds, 0) : 0), 0);
  return (
    `<section><h2>Win rate by tactic and by rule</h2><figure>${chart}</figure>` +
    `<h3>Headline table</h3><div class="wide">${table(head, body, num)}</div>` +
    perfectTable +
    linkedRows(linked) +
    `<h3>Method</h3>${method}<p>${mdInline(md.method)}</p><h3>Machine</h3>${machine}` +
    (seconds > 0 ? `<p><small>The rows' runs took ${h(wallTime(seconds))} of wall-clock time in all (their sidecars).</small></p>` : '') +
    '</section>'
  );
}

/** `building=none second-deal=privileged privileged=4` -> `building=none`: the options where rules differ from book. */
function rulesBesideBook(text: string): string {
  const book = new Set(formatRulesFull(BOOK).split(' '));
  const words = text.split(/\s+/).filter((w) => w !== '' && !book.has(w));
  return words.length === 0 ? 'book' : words.join(' ');
}

function formatRulesFull(r: Rules): string {
  return `building=${r.building} second-deal=${r.secondDeal} privileged=${r.privileged}`;
}
