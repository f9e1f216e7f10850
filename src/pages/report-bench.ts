/** The report of `limited bench`: bench.json, bench.svg, and bench.csv's deals when kept. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserError, parseRules, parseSize } from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { BENCH_FORMAT } from '../compare/run.js';
import { loadSet } from '../compare/sets.js';
import { wallTime } from '../util/duration.js';
import { type DealSettings, type Linker, FIRST_DEALS, dealLinks, dealsByVerdict, linkedRows } from './deal-links.js';
import { escapeHtml as h } from './page.js';
import { facts, pct, table } from './report-html.js';
import { inlineSvg, readJson } from './results.js';

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

export async function benchReport(dir: string, l: Linker): Promise<string> {
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
