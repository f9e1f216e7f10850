/**
 * `limited report DIR`: one HTML page from a results directory, of whichever kind it holds:
 *   - `limited experiment tactics` (tactics.csv, tactics.md, the rows' sidecars);
 *   - `limited bench` (bench.json, bench.svg, bench.csv when kept);
 *   - `limited experiment winrate` (winrate.json, with its phases' batch files);
 *   - batches (FILE.summary.json with FILE.meta.json, FILE.csv when kept).
 * The page has the headline table, the charts with their intervals, the method and the machine,
 * and for the solver's rows links that open a deal in the viewer page written beside it.
 */
import { createReadStream, existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { type Rules, type Size, BOOK, UserError, parseRules, parseSize } from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { parseCsvLine } from '../batch/csv.js';
import { metaPath } from '../batch/names.js';
import { type Meta, type SummaryFile, readMeta } from '../batch/sidecar.js';
import { formatRange } from '../batch/range.js';
import { BENCH_FORMAT } from '../compare/run.js';
import { loadSet } from '../compare/sets.js';
import { type ChartLine, tacticsSvg, tacticsTitles } from '../experiment/chart.js';
import { type Group } from '../experiment/matrix.js';
import { wallTime } from '../experiment/report.js';
import { dealHash } from '../web/data.js';
import { escapeHtml as h, htmlDocument } from './page.js';
import { verdictSvg } from './verdict-chart.js';
import { intervalSvg } from './interval-chart.js';
import { type EstimateLine } from '../experiment/winrate.js';
import { WINRATE_FORMAT, WINRATE_METHOD, intervalText } from '../experiment/winrate-report.js';

export type ResultsKind = 'tactics' | 'bench' | 'winrate' | 'batch';

/** Deal numbers listed per verdict (links to the viewer), at most. */
const LINKS_PER_VERDICT = 24;
/** Deals linked when the verdicts are not kept (no CSV): the first of the range. */
const FIRST_DEALS = 6;

/** What kind of results DIR holds. Throws UserError when none that limited writes. */
export function detectResults(dir: string): ResultsKind {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`no such directory '${dir}'`);
    if (code === 'ENOTDIR') throw new UserError(`'${dir}' is not a directory: give the directory of the results`);
    throw e;
  }
  if (names.includes('tactics.csv')) return 'tactics';
  if (names.includes('bench.json')) return 'bench';
  if (names.includes('winrate.json')) return 'winrate';
  if (names.some((n) => n.endsWith('.summary.json'))) return 'batch';
  throw new UserError(
    `'${dir}' holds no results that limited writes: tactics.csv (experiment tactics), bench.json (bench), winrate.json (experiment winrate) or FILE.summary.json (batch)`,
  );
}

/** Where a deal link points: the viewer page and the deal's settings. */
export interface Linker {
  /** The viewer's file name, relative to the report. */
  readonly viewer: string;
  links: number;
}

interface DealSettings {
  readonly source: string;
  readonly rules: Rules;
  readonly size: Size;
  readonly solver: SolveRequest;
}

function dealLink(l: Linker, s: DealSettings, deal: number): string {
  l.links++;
  const source = s.source === 'pysol' ? `pysol ${deal}` : String(deal);
  return `<a class="deal" href="${h(l.viewer + dealHash({ source, rules: s.rules, size: s.size, solver: s.solver }))}">${deal}</a>`;
}

/** The first deals of each verdict in a results CSV (streamed: a file may hold a million rows). */
async function dealsByVerdict(file: string, only?: (cols: string[], at: (name: string) => number) => boolean): Promise<Map<string, { deals: number[]; count: number }>> {
  const by = new Map<string, { deals: number[]; count: number }>();
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let header: string[] | null = null;
  const at = (name: string): number => header!.indexOf(name);
  try {
    for await (const line of lines) {
      if (line === '') continue;
      const cols = parseCsvLine(line);
      if (!header) {
        header = cols;
        if (at('deal') < 0 || at('verdict') < 0) throw new UserError(`${file}: the header has no columns 'deal' and 'verdict'`);
        continue;
      }
      if (only && !only(cols, at)) continue;
      const v = cols[at('verdict')] ?? '';
      const e = by.get(v) ?? { deals: [], count: 0 };
      e.count++;
      if (e.deals.length < LINKS_PER_VERDICT) e.deals.push(Number(cols[at('deal')]));
      by.set(v, e);
    }
  } finally {
    lines.close();
    input.destroy();
  }
  return by;
}

const VERDICT_ORDER = ['won', 'unsolvable', 'lost', 'unknown'];

/** The deal links of one solver row: by verdict from its CSV, else the first deals of its range. */
function dealLinks(l: Linker, s: DealSettings, by: Map<string, { deals: number[]; count: number }> | null, first: readonly number[]): string {
  if (!by) return `<span class="links">deals ${first.map((d) => dealLink(l, s, d)).join(' ')} <small>(the verdicts per deal are not kept here)</small></span>`;
  const parts: string[] = [];
  for (const v of VERDICT_ORDER) {
    const e = by.get(v);
    if (!e) continue;
    const more = e.count > e.deals.length ? ` <small>… ${e.count - e.deals.length} more</small>` : '';
    parts.push(`<span class="links"><b class="v-${v}">${v}</b> ${e.deals.map((d) => dealLink(l, s, d)).join(' ')}${more}</span>`);
  }
  return parts.join('<br>');
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

/** The rows' deal links, one line a row. */
function linkedRows(rows: readonly [string, string][]): string {
  if (rows.length === 0) return '';
  return `<h3>Deals in the viewer</h3><div class="deals">${rows.map(([name, links]) => `<div><span class="row">${h(name)}</span> ${links}</div>`).join('\n')}</div>`;
}

function table(head: readonly string[], rows: readonly (readonly string[])[], numeric: ReadonlySet<number> = new Set()): string {
  const th = head.map((x, i) => `<th${numeric.has(i) ? ' class="num"' : ''}>${x}</th>`).join('');
  const tr = rows.map((r) => `<tr>${r.map((x, i) => `<td${numeric.has(i) ? ' class="num"' : ''}>${x}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${tr}\n</tbody></table>`;
}

function facts(items: readonly (readonly [string, string])[]): string {
  return `<dl>${items.map(([k, v]) => `<dt>${h(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

const pct = (x: number | null | undefined, digits = 2): string => (x === null || x === undefined ? '' : `${(100 * x).toFixed(digits)} %`);
const signed = (x: number): string => `${x > 0.00005 ? '+' : x < -0.00005 ? '−' : '±'}${Math.abs(100 * x).toFixed(2)}`;

function readJson<T>(file: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (e) {
    if (e instanceof SyntaxError) throw new UserError(`${file} is not JSON: ${e.message}`);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`cannot read '${file}': no such file`);
    throw e;
  }
}

/** An SVG file's text to put inline: without an XML declaration. */
function inlineSvg(file: string): string | null {
  if (!existsSync(file)) return null;
  return readFileSync(file, 'utf8').replace(/^<\?xml[^>]*>\s*/, '');
}

function dealSettings(meta: Meta): DealSettings {
  return { source: meta.job.source, rules: parseRules(meta.job.rules), size: parseSize(meta.job.size), solver: meta.job.solver };
}

function machineOf(meta: Meta): string {
  return `${meta.cpu} × ${meta.cores} cores, Node ${meta.node}, host ${meta.host}, ${meta.workers} workers`;
}

// ---------------------------------------------------------------------------------------
// Batches

async function batchSection(dir: string, summaryFile: string, l: Linker): Promise<string> {
  const s = readJson<SummaryFile>(join(dir, summaryFile));
  const csv = join(dir, summaryFile.replace(/\.summary\.json$/, '.csv'));
  const meta = readMeta(csv);
  const name = basename(csv);
  const solver = s.job.kind !== 'play';
  const where = `${s.job.source === 'pysol' ? 'PySolFC games' : 'deals'} ${formatRange(s.part)}`;
  const rows = [
    ['deals', String(s.deals) + (s.complete ? '' : ` of ${s.part.count} (incomplete)`)],
    ['won', `${s.won} (${pct(s.deals > 0 ? s.won / s.deals : null, 1)})`],
    solver ? ['unsolvable (proved)', String(s.unsolvable)] : ['lost', `${s.lost} <small>(games this player lost: no proof)</small>`],
    ...(solver ? [['unknown (a budget ran out)', `${s.unknown}${s.unknown > 0 ? ` (${Object.entries(s.unknownByLimit).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`]] : []),
    ['win rate (won / deals)', pct(s.winRate.wonShare)],
    ['95 % interval', `${pct(s.winRate.low)} – ${pct(s.winRate.high)}${solver ? ' <small>(Wilson; unknown counted as lost for the low end, won for the high end)</small>' : ' (Wilson)'}`],
    ...(solver ? [['won / decided', pct(s.winRate.point)]] : []),
    ['nodes a deal', `mean ${s.nodes.mean.toFixed(0)}, median ${s.nodes.median}, p90 ${s.nodes.p90}, max ${s.nodes.max}`],
    ['ms a deal', `mean ${s.ms.mean.toFixed(1)}, median ${s.ms.median.toFixed(1)}, p90 ${s.ms.p90.toFixed(1)}`],
    ['speed', h(s.speed.note)],
  ];
  const parts = solver
    ? [
        { label: 'won', count: s.won, colour: '#43a047' },
        { label: 'unsolvable', count: s.unsolvable, colour: '#e53935' },
        { label: 'unknown', count: s.unknown, colour: '#bdbdbd' },
      ]
    : [
        { label: 'won', count: s.won, colour: '#43a047' },
        { label: 'lost', count: s.lost, colour: '#9e9e9e' },
      ];
  const chart = verdictSvg({
    title: `${name}: ${where}, ${s.job.method}`,
    deals: s.deals,
    parts,
    rate: s.winRate.wonShare === null ? null : { point: s.winRate.wonShare, low: s.winRate.low ?? 0, high: s.winRate.high ?? 1 },
  });
  let links = '';
  if (solver && meta) {
    const by = existsSync(csv) ? await dealsByVerdict(csv) : null;
    const first = Array.from({ length: Math.min(FIRST_DEALS, s.part.count) }, (_, i) => s.part.from + i);
    links = `<h3>Deals in the viewer</h3><p class="deals">${dealLinks(l, dealSettings(meta), by, first)}</p>`;
  }
  const method = facts([
    ['command', `<code>${h(meta?.command ?? '')}</code>`],
    ['job', h(`${s.job.kind} ${s.job.method}`)],
    ['budgets', solver ? h(`max ${s.job.budgets.maxNodes} nodes${s.job.budgets.maxSeconds !== null ? `, ${s.job.budgets.maxSeconds} s` : ''}, ${s.job.budgets.maxMemoryMB} MB a deal`) : 'none (a blind player)'],
    ['rules · size', h(`${s.job.rules} · ${s.job.size}`)],
    ['deals', h(`${where}${s.shard ? ` (shard ${s.shard.index}/${s.shard.count})` : ''}`)],
  ]);
  const machine = meta
    ? facts([
        ['machine', h(machineOf(meta))],
        ['version · commit', h(`${meta.version} · ${meta.commit ?? 'unknown'}`)],
        ['ran', h(`${meta.startedAt} to ${meta.endedAt ?? '?'} (${meta.sessions.length} session${meta.sessions.length === 1 ? '' : 's'})`)],
      ])
    : `<p>No ${h(basename(metaPath(csv)))}: the machine is not known.</p>`;
  return (
    `<section><h2>${h(name)}</h2>${table(['', ''], rows.map(([a, b]) => [h(a!), b!]))}` +
    `<figure>${chart}</figure>${links}<h3>Method</h3>${method}<h3>Machine</h3>${machine}</section>`
  );
}

// ---------------------------------------------------------------------------------------
// experiment tactics

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

/** Markdown's `code` and **bold** as HTML (the rest escaped). */
const mdInline = (s: string): string => h(s).replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>');

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

async function tacticsReport(dir: string, l: Linker): Promise<string> {
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

// ---------------------------------------------------------------------------------------
// experiment winrate

interface WinrateJson {
  format: string;
  headline: string;
  command: string;
  phase1: string;
  phase2: string;
  sample: number;
  seed: string;
  written: string;
  cost: { hours: number; machines: string[]; commits: string[]; from: string; to: string };
  estimates: EstimateLine[];
}

/** Paragraphs and numbered lists of a markdown text as HTML. */
function mdBlocks(text: string): string {
  const flat = (t: string): string => mdInline(t.replace(/\s*\n\s*/g, ' '));
  return text
    .split(/\n\n+/)
    .map((b) => (/^1\. /.test(b) ? `<ol>${b.split(/\n(?=\d+\. )/).map((i) => `<li>${flat(i.replace(/^\d+\. /, ''))}</li>`).join('')}</ol>` : `<p>${flat(b)}</p>`))
    .join('');
}

async function winrateReport(dir: string, l: Linker): Promise<string> {
  const w = readJson<WinrateJson>(join(dir, 'winrate.json'));
  if (w.format !== WINRATE_FORMAT || !Array.isArray(w.estimates) || w.estimates.length === 0)
    throw new UserError(`${join(dir, 'winrate.json')} is not a winrate.json of limited experiment winrate (format '${String(w.format)}')`);
  const label = (e: EstimateLine): string => (e.kind === 'rate' ? e.row : `${e.row} − ${e.baseline}`);
  const charts = (['rate', 'difference'] as const)
    .map((kind) => {
      const lines = w.estimates.filter((e) => e.kind === kind);
      if (lines.length === 0) return '';
      const title = kind === 'rate' ? 'Won with perfect play, 95 % interval' : 'Differences between games, 95 % interval';
      const svg = intervalSvg({ title, kind, lines: lines.map((e) => ({ label: label(e), low: e.estimate.low, high: e.estimate.high, ciLow: e.estimate.ciLow, ciHigh: e.estimate.ciHigh })) });
      return `<figure>${svg}</figure>`;
    })
    .join('');
  const head = ['estimate', 'deals', 'phase 1: won / lost / unknown', 'by implication', 'undecided', 'sampled', 'settled in phase 2', 'still undecided', '95 % interval', 'width'];
  const body = w.estimates.map((e) => [
    h(label(e)), h(formatRange(e.range)), `${e.phase1.won} / ${e.phase1.lost} / ${e.phase1.unknown}`, String(e.implied), String(e.estimate.undecided),
    String(e.estimate.sampled), String(e.settled), String(e.estimate.stillUndecided), h(intervalText(e)), `${(100 * (e.estimate.ciHigh - e.estimate.ciLow)).toFixed(1)} points`,
  ]);
  const method = facts([
    ['command', `<code>${h(w.command)}</code>`],
    ['phase 1', h(w.phase1)],
    ['phase 2', h(`${w.phase2}; a sample of at most ${w.sample} undecided deals an estimate, priority seed '${w.seed}'`)],
  ]);
  const machine = facts([
    ['machine', h(w.cost.machines.join('; ') || 'unknown')],
    ['builds', h(w.cost.commits.join(', ') || 'unknown')],
    ['ran', h(`${w.cost.from} to ${w.cost.to}; ${w.cost.hours.toFixed(2)} worker-hours; summary written ${w.written}`)],
  ]);
  const phases = readdirSync(dir).filter((n) => n.endsWith('.summary.json')).sort();
  const sections = (await Promise.all(phases.map((f) => batchSection(dir, f, l)))).join('\n');
  return (
    `<section><h2>How often it is won</h2><p class="headline"><b>${h(w.headline)}.</b></p>${charts}` +
    `<h3>Estimates</h3><div class="wide">${table(head, body, new Set([1, 3, 4, 5, 6, 7, 9]))}</div>` +
    `<h3>Method</h3>${method}${mdBlocks(WINRATE_METHOD)}` +
    `<h3>Machine</h3>${machine}</section>\n${sections}`
  );
}

// ---------------------------------------------------------------------------------------
// bench

interface BenchJson {
  format: string;
  command: string;
  startedAt: string;
  seconds: number;
  workers: number;
  commit: string | null;
  version: string;
  machine: { cores: number; cpu: string; node: string; host: string; platform: string };
  set: { name: string; description: string; source: 'v1' | 'pysol'; size: string; count: number; chosen?: string };
  rules: string;
  search: string;
  budgets: { maxNodes: number | null; maxSeconds: number | null; maxMemoryMB: number };
  heuristics: string[];
  signature: { nodes: number; deterministic: boolean };
  figures: {
    heuristic: string;
    deals: number;
    won: number;
    unsolvable: number;
    unknown: number;
    decided: number;
    nodes: { median: number; mean: number; p90: number };
    ms: { median: number; mean: number; p90: number };
    nodesPerSecond: number | null;
    pairedWithFirst: { onlyThis: number; onlyBase: number; better: number; worse: number; p: number } | null;
  }[];
}

async function benchReport(dir: string, l: Linker): Promise<string> {
  const b = readJson<BenchJson>(join(dir, 'bench.json'));
  if (typeof b.format !== 'string' || !b.format.startsWith(BENCH_FORMAT.split('/')[0]!))
    throw new UserError(`${join(dir, 'bench.json')} is not a bench.json of limited bench (format '${String(b.format)}')`);
  const csv = join(dir, 'bench.csv');
  let first: number[] = [];
  if (!existsSync(csv)) {
    try {
      first = loadSet(b.set.name).deals.slice(0, FIRST_DEALS);
    } catch {
      // the set is not in this package: no links
    }
  }
  const rules = parseRules(b.rules);
  const size = parseSize(b.set.size);
  const head = ['heuristic', 'deals', 'won', 'unsolvable', 'unknown', 'decided', 'nodes median', 'mean', 'p90', 'ms median', 'nodes/s', 'vs the first: only it / only first, sign test p'];
  const body: string[][] = [];
  const linked: [string, string][] = [];
  for (const f of b.figures) {
    const solver: SolveRequest = {
      search: b.search as SolveRequest['search'], heuristic: f.heuristic,
      ...(b.budgets.maxNodes !== null ? { maxNodes: b.budgets.maxNodes } : {}), ...(b.budgets.maxSeconds !== null ? { maxSeconds: b.budgets.maxSeconds } : {}),
    };
    const settings: DealSettings = { source: b.set.source, rules, size, solver };
    const by = existsSync(csv) ? await dealsByVerdict(csv, (cols, at) => cols[at('heuristic')] === f.heuristic) : null;
    const p = f.pairedWithFirst;
    body.push([
      h(f.heuristic), String(f.deals), String(f.won), String(f.unsolvable), String(f.unknown), pct(f.decided / Math.max(1, f.deals), 1),
      String(f.nodes.median), f.nodes.mean.toFixed(0), String(f.nodes.p90), f.ms.median.toFixed(1), f.nodesPerSecond === null ? '' : f.nodesPerSecond.toFixed(0),
      p ? `${p.onlyThis} / ${p.onlyBase}, p = ${p.p < 0.001 ? p.p.toExponential(1) : p.p.toPrecision(2)}` : '(the first)',
    ]);
    if (by || first.length > 0) linked.push([f.heuristic, dealLinks(l, settings, by, first)]);
  }
  const svg = inlineSvg(join(dir, 'bench.svg'));
  const method = facts([
    ['command', `<code>${h(b.command)}</code>`],
    ['deal set', h(`${b.set.name}: ${b.set.description} (${b.set.count} deals, size ${b.set.size})${b.set.chosen ? `; ${b.set.chosen}` : ''}`)],
    ['rules · search', h(`${b.rules} · ${b.search}`)],
    ['budgets', h(`${b.budgets.maxNodes !== null ? `${b.budgets.maxNodes} nodes` : 'no node limit'}${b.budgets.maxSeconds !== null ? `, ${b.budgets.maxSeconds} s` : ''}, ${b.budgets.maxMemoryMB} MB a search`)],
    ['signature', h(`${b.signature.nodes} nodes in all${b.signature.deterministic ? ' (deterministic: the same on any machine)' : ''}`)],
  ]);
  const machine = facts([
    ['machine', h(`${b.machine.cpu} × ${b.machine.cores} cores, Node ${b.machine.node}, ${b.machine.platform}, host ${b.machine.host}; ${b.workers} workers`)],
    ['ran', h(`${b.startedAt}, ${wallTime(b.seconds)}`)],
    ['version · commit', h(`${b.version} · ${b.commit ?? 'unknown'}`)],
  ]);
  return (
    `<section><h2>Heuristics compared: ${h(b.set.name)}</h2><h3>Headline table</h3><div class="wide">${table(head, body, new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))}</div>` +
    (svg ? `<figure>${svg}</figure>` : '<p>No bench.svg here.</p>') +
    linkedRows(linked) +
    `<h3>Method</h3>${method}<p>Decided: won or proved unsolvable within the budget. Nodes and ms per deal over all deals (an unknown deal counts what it spent). ` +
    'Only it / only first: deals one of the two decided; sign test: exact two-sided binomial over the deals one decided in fewer nodes.</p>' +
    `<h3>Machine</h3>${machine}</section>`
  );
}

// ---------------------------------------------------------------------------------------

const REPORT_CSS = `
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; color: #1b1b1b; background: #f4f3ee; }
main { max-width: 1280px; margin: 0 auto; padding: 18px 22px 40px; }
header { background: linear-gradient(90deg, #17543a, #2a8457); color: #fff; padding: 16px 22px; }
header h1 { margin: 0; font-size: 24px; } header p { margin: 4px 0 0; color: #d7eedf; }
section { background: #fff; border-radius: 10px; padding: 14px 20px 18px; margin-top: 18px; box-shadow: 0 2px 8px rgba(0,0,0,.08); }
h2 { margin: 0 0 8px; font-size: 20px; } h3 { margin: 18px 0 6px; font-size: 16px; color: #2e4e3d; }
figure { margin: 10px 0; overflow-x: auto; } figure svg { box-sizing: border-box; max-width: 100%; height: auto; border: 1px solid #e4e1d4; border-radius: 6px; }
table { border-collapse: collapse; font-size: 13.5px; } th, td { padding: 4px 8px; border-bottom: 1px solid #e8e6dc; text-align: left; vertical-align: top; }
th { background: #f1f0e8; white-space: nowrap; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:hover { background: #f7faf5; } .wide { overflow-x: auto; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 0; } dt { color: #666; } dd { margin: 0; }
code { font: 13px ui-monospace, "DejaVu Sans Mono", Menlo, monospace; background: #f1f0e8; padding: 1px 5px; border-radius: 4px; word-break: break-all; }
a.deal { display: inline-block; min-width: 2.2em; text-align: center; padding: 0 4px; margin: 1px; border-radius: 4px; background: #e8f5e9; color: #1b5e20; text-decoration: none; font-variant-numeric: tabular-nums; }
a.deal:hover { background: #1b5e20; color: #fff; } small { color: #777; }
.deals > div { padding: 3px 0; border-bottom: 1px solid #f0eee6; } .deals .row { display: inline-block; min-width: 13em; font-weight: 600; }
.deals .links { margin-right: 10px; } td { white-space: nowrap; }
.v-won { color: #2e7d32; } .v-unsolvable { color: #c62828; } .v-unknown { color: #757575; } .v-lost { color: #616161; }
`;

/** The whole report page for DIR; deal links point at `viewer` (a file beside the report). */
export async function reportPage(dir: string, viewer: string): Promise<{ html: string; kind: ResultsKind; links: number }> {
  const kind = detectResults(dir);
  const l: Linker = { viewer, links: 0 };
  let body: string;
  let what: string;
  if (kind === 'tactics') {
    what = 'limited experiment tactics';
    body = await tacticsReport(dir, l);
  } else if (kind === 'bench') {
    what = 'limited bench';
    body = await benchReport(dir, l);
  } else if (kind === 'winrate') {
    what = 'limited experiment winrate';
    body = await winrateReport(dir, l);
  } else {
    what = 'limited batch';
    const files = readdirSync(dir).filter((n) => n.endsWith('.summary.json')).sort();
    body = (await Promise.all(files.map((f) => batchSection(dir, f, l)))).join('\n');
  }
  const note = l.links > 0 ? ` · a deal's number opens it in ${h(viewer)}, solved there as the run solved it` : '';
  const html = htmlDocument(
    `limited report · ${basename(dir)}`,
    REPORT_CSS,
    `<header><h1>${h(what)}: ${h(dir)}</h1><p>report written ${h(new Date().toISOString())}${note}</p></header><main>${body}</main>`,
  );
  return { html, kind, links: l.links };
}
