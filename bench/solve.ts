/**
 * Solver benchmark: every deal of a fixed set solved at a fixed budget, one core.
 *
 *   npm run bench:solve                       # = node dist/bench/solve.js (1000 deals, 1 s each)
 *   node dist/bench/solve.js --count 50 --out results/solve-50.md
 *   node dist/bench/solve.js --rules book --searches best --heuristics blend,buried,home,mobility
 *
 * Deals: for the rules `pysol` (a rules text whose first word is the pysol preset) the deals
 * of PySolFC game numbers A..A+N-1 (what a PySolFC player sees); for any other rules the deal
 * numbers A..A+N-1 of scheme v1 (`--from A`, default 1; `--count N`). Full size (2x13 12x3)
 * always.
 *
 * For each rules x search x heuristic (heuristics apply to best-first only), each deal is
 * solved once, in this process, one deal after another, with `--max-seconds` (and
 * `--max-nodes` when given) as the limits and `--max-memory` as the table's memory cap. The
 * table has one row per combination: decided % (won + unsolvable), won %, unsolvable % (with the
 * share proved by LockBound before any search), unknown %, the
 * median / mean / max of nodes expanded and of milliseconds per deal, nodes per second (all
 * nodes over all seconds) and the mean bytes per stored state (over all states stored, so a
 * deal decided in 40 states, whose table is mostly its initial index, does not swamp it). Markdown on stdout (and in
 * `--out FILE`); progress on stderr only when stderr is a terminal. `--csv FILE` also writes
 * one row a deal and combination (verdict, proof, limit, nodes, states, ms, cards home at
 * best), so that two builds can be compared deal by deal and the undecided deals listed.
 *
 * An untimed warm-up (each search on deal 1 of each rules, 0.3 s at most) comes first. Before
 * and after the deals, the report's `memory` line gives how long a random read of 4, 16 and 64
 * MB takes (`memoryReadings`, about a second each time): the searches' tables are read that
 * way, and on a shared VM that speed, and with it the nodes a second, changes from day to day. With
 * `--cold` there is none: each deal is solved by a process of its own instead
 * (`limited solve N --json`, with the same options), as one solves a single deal, so the times
 * include what V8 spends compiling the solver in each process (README, "Solving a deal").
 * With a node budget and no time budget that binds, the node counts are deterministic:
 * the same command gives the same nodes columns on any machine.
 */
import { spawnSync } from 'node:child_process';
import { cpus, platform, release } from 'node:os';
import {
  type Deal, type Rules, FULL_SIZE, UserError, dealFromNumber, formatRules, parseRules, pysolDeal,
} from '../src/game/index.js';
import { HEURISTICS } from '../src/solver/heuristics.js';
import { type SearchKind, type SolveRequest, type SolveResult, type Verdict, DEFAULT_PRESET, PRESETS, SolutionError, Solver, solveRequest } from '../src/solver/index.js';
import { benchArgs, benchCommand } from './args.js';
import { solveArgs } from './cli.js';
import { csvText } from '../src/batch/csv.js';
import { memoryLine, memoryReadings } from '../src/batch/machine.js';

const USAGE = `usage: node dist/bench/solve.js [options]     (npm run bench:solve -- [options])

  --from A              the first deal: deals A..A+N-1 (default 1)
  --count N             how many deals of each rules (default 1000)
  --max-seconds S       time budget per deal, seconds (default 1)
  --max-nodes N         node budget per deal as well (default: none)
  --max-memory MB       memory cap of the solver's table per deal (default 1024)
  --rules LIST          comma-separated rules (default "book,pysol"); "pysol" uses PySolFC
                        game numbers A..A+N-1, any other rules the deal numbers A..A+N-1
  --searches LIST       comma-separated searches: dfs, best, rollout (default "dfs,best")
  --heuristics LIST     heuristics for best-first (default "blend"; all: ${Object.keys(HEURISTICS).join(',')})
  --presets LIST        also the solver's named presets, each run with the same budget
                        (these: ${Object.keys(PRESETS).join(',')}; default: the solver's default, ${DEFAULT_PRESET}; "" for none)
  --out FILE.md         also write the report to FILE.md
  --csv FILE.csv        also write one row a deal and combination: rules, deal, search,
                        heuristic, verdict, proof, limit, nodes, states, ms, best_home
  --cold                solve each deal in a new process (limited solve N --json), as a
                        single deal is solved, instead of one deal after another in this one;
                        the report adds each process's time from its start to its exit
  -h, --help            this help
`;

const args = benchArgs('solve', USAGE, {
  from: { type: 'string', default: '1' },
  count: { type: 'string', default: '1000' },
  'max-seconds': { type: 'string', default: '1' },
  'max-nodes': { type: 'string' },
  'max-memory': { type: 'string', default: '1024' },
  rules: { type: 'string', default: 'book,pysol' },
  searches: { type: 'string', default: 'dfs,best' },
  heuristics: { type: 'string', default: 'blend' },
  presets: { type: 'string' },
  out: { type: 'string' },
  csv: { type: 'string' },
  cold: { type: 'boolean', default: false },
}, { deals: '--count N', first: '--from A', 'budget-seconds': '--max-seconds S' });
const values = args.values;
// Annotated, so that the compiler knows a call to it does not return.
const fail: (message: string) => never = args.fail;
const positiveInteger = args.wholeNumber;
const positiveNumber = args.positiveNumber;
function list(name: string, text: string): string[] {
  const items = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0) fail(`--${name} is empty`);
  return items;
}

const DEALS = positiveInteger('count', values.count as string);
const FIRST = positiveInteger('from', values.from as string);
if (DEALS - 1 > Number.MAX_SAFE_INTEGER - FIRST) fail(`--from ${FIRST} --count ${DEALS} runs past 2^53-1`);
const LAST = FIRST + DEALS - 1;
const BUDGET = positiveNumber('max-seconds', values['max-seconds'] as string);
const MAX_NODES = values['max-nodes'] !== undefined ? positiveInteger('max-nodes', values['max-nodes'] as string) : undefined;
const MAX_MEMORY = positiveNumber('max-memory', values['max-memory'] as string);
const RULES = list('rules', values.rules as string).map((text) => {
  try {
    return { text, rules: parseRules(text), pysol: text.trim().split(/\s+/)[0]!.toLowerCase() === 'pysol' };
  } catch (e) {
    if (e instanceof UserError) fail(`--rules '${text}': ${e.message}`);
    throw e;
  }
});
const SEARCHES = (values.searches === '' ? [] : list('searches', values.searches as string)).map((s) => {
  if (s !== 'dfs' && s !== 'best' && s !== 'rollout') fail(`unknown search '${s}' in --searches (dfs, best, rollout)`);
  return s as SearchKind;
});
const HEURISTIC_NAMES = list('heuristics', values.heuristics as string).map((h) => {
  if (!Object.hasOwn(HEURISTICS, h)) fail(`unknown heuristic '${h}' in --heuristics (${Object.keys(HEURISTICS).join(', ')})`);
  return h;
});
const PRESET_NAMES =
  values.presets === undefined
    ? [DEFAULT_PRESET]
    : values.presets === ''
    ? []
    : list('presets', values.presets as string).map((p) => {
        if (!Object.hasOwn(PRESETS, p)) fail(`unknown preset '${p}' in --presets (${Object.keys(PRESETS).join(', ')})`);
        return p;
      });
const OUT = values.out as string | undefined;
const CSV = values.csv as string | undefined;
const COLD = values.cold === true;
// Fail before the long run, not after it, when --out or --csv cannot be written.
args.checkOutputs([['out', OUT], ['csv', CSV]]);
/** The --csv rows (header first), one a deal and combination, in the order solved. */
const csvRows: (string | number)[][] = [['rules', 'deal', 'search', 'heuristic', 'verdict', 'proof', 'limit', 'nodes', 'states', 'ms', 'best_home']];

interface Row {
  rules: string;
  deals: string;
  /** `dfs`, `best`, or `preset NAME`. */
  search: string;
  heuristic: string;
  verdicts: Record<Verdict, number>;
  limits: { nodes: number; time: number; memory: number };
  errors: number;
  /** Unsolvable verdicts proved by LockBound before any search. */
  byLocks: number;
  nodes: number[];
  ms: number[];
  /** --cold: each deal's process from start to exit, as a user of `limited solve` waits for it. */
  processMs: number[];
  /** Table bytes (bytes per state x states) and states, summed over the deals. */
  tableBytes: number;
  states: number;
  totalNodes: number;
  totalSeconds: number;
}

const progress = process.stderr.isTTY === true;

/** A deal's name in the CSV: its source ("17", "pysol 17"), else its place in the set. */
const dealName = (deal: Deal, i: number): string => deal.source ?? String(FIRST + i);

/** One row: `search` is dfs or best (with `heuristic`), or `preset NAME`. */
function benchOne(label: string, dealsLabel: string, deals: Deal[], rules: Rules, search: SearchKind | `preset ${string}`, heuristic: string, pysol: boolean): Row {
  const solver = new Solver();
  // Without --max-nodes the time budget alone is the budget (it lifts the node cap).
  const budget = { ...(MAX_NODES !== undefined ? { maxNodes: MAX_NODES } : {}), maxSeconds: BUDGET, maxMemoryMB: MAX_MEMORY };
  const opts: SolveRequest = search.startsWith('preset ')
    ? { preset: search.slice('preset '.length), ...budget }
    : { search: search as SearchKind, ...budget, ...(search === 'best' ? { heuristic } : {}) };
  const row: Row = {
    rules: label, deals: dealsLabel, search, heuristic: search === 'best' ? heuristic : '–',
    verdicts: { won: 0, unsolvable: 0, unknown: 0 }, limits: { nodes: 0, time: 0, memory: 0 }, errors: 0, byLocks: 0,
    nodes: [], ms: [], processMs: [], tableBytes: 0, states: 0, totalNodes: 0, totalSeconds: 0,
  };
  /** The CSV's heuristic column: best-first only (the table writes '–' for the others). */
  const csvHeuristic = search === 'best' ? heuristic : '';
  for (let i = 0; i < deals.length; i++) {
    if (progress) process.stderr.write(`\r${label} ${search}${search === 'best' ? ' ' + heuristic : ''}: deal ${i + 1}/${deals.length}   `);
    try {
      const r = COLD ? solveCold(pysol ? ['--pysol', String(FIRST + i)] : [String(FIRST + i)], label, opts) : solveRequest(solver, deals[i]!, rules, opts);
      if (CSV !== undefined)
        csvRows.push([label, dealName(deals[i]!, i), search, csvHeuristic, r.verdict, r.proof ?? '', r.limit ?? '', r.nodes, r.states, +(r.seconds * 1000).toFixed(1), r.bestHome]);
      row.verdicts[r.verdict]++;
      if (r.proof === 'locks') row.byLocks++;
      // ('interrupted' comes only from `limited solve`, which stops between steps on a signal.)
      if (r.verdict === 'unknown' && r.limit && r.limit !== 'interrupted') row.limits[r.limit]++;
      row.nodes.push(r.nodes);
      row.ms.push(r.seconds * 1000);
      if ('processMs' in r) row.processMs.push(r.processMs);
      row.tableBytes += r.bytesPerState * r.states;
      row.states += r.states;
      row.totalNodes += r.nodes;
      row.totalSeconds += r.seconds;
    } catch (e) {
      // A solution that fails to verify is a solver bug: count it, say which deal, go on.
      if (!(e instanceof SolutionError)) throw e;
      row.errors++;
      if (CSV !== undefined) csvRows.push([label, dealName(deals[i]!, i), search, csvHeuristic, 'error', '', '', '', '', '', '']);
      process.stderr.write(`${progress ? '\n' : ''}solve bench: ${label} ${search} ${heuristic} deal ${deals[i]!.source}: ${e.message}\n`);
    }
  }
  if (progress) process.stderr.write('\r\x1b[K');
  return row;
}

/**
 * `--cold`: one deal solved by `limited solve DEAL --rules RULES ... --json` in a process of its
 * own, with the options `opts` stand for. Its figures as `solveRequest` gives them; a solution that
 * fails to verify (exit 3) throws SolutionError, as it does in this process.
 */
function solveCold(deal: string[], rules: string, opts: SolveRequest): Pick<SolveResult, 'verdict' | 'proof' | 'limit' | 'nodes' | 'states' | 'seconds' | 'bytesPerState' | 'bestHome'> & { processMs: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, solveArgs(deal, rules, opts), { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status === 3) throw new SolutionError(r.stderr.trim());
  if (r.status !== 0) fail(`limited solve ${deal.join(' ')} --rules '${rules}' exited with ${r.status ?? r.signal}: ${r.stderr.trim()}`);
  return { ...(JSON.parse(r.stdout) as Omit<ReturnType<typeof solveCold>, 'processMs'>), processMs: performance.now() - t };
}

const median = (xs: number[]): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const max = (xs: number[]): number => xs.reduce((a, b) => Math.max(a, b), 0);
const pct = (k: number, n: number): string => (n === 0 ? '–' : ((100 * k) / n).toFixed(1));
const int = (x: number): string => Math.round(x).toLocaleString('en-US');
const ms = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

// ---------------------------------------------------------------------------------------

// Untimed warm-up, so that the first row does not pay for the JIT: each search on deal 1 of
// each rules, 0.3 s at most each. (With --cold every deal pays for it, on purpose.)
if (!COLD) {
  const solver = new Solver();
  for (const r of RULES) {
    const deal = r.pysol ? pysolDeal(1) : dealFromNumber(1, FULL_SIZE);
    for (const search of ['dfs', 'best'] as const) solver.solve(deal, r.rules, { search, maxSeconds: Math.min(BUDGET, 0.3), maxMemoryMB: MAX_MEMORY });
  }
}

// The machine's memory now (README, Benchmarks): the nodes a second of the searches, whose
// tables are read at random, follow it, and it varies from day to day on a shared VM.
const memoryBefore = memoryReadings();
const t0 = performance.now();
const rows: Row[] = [];
for (const r of RULES) {
  const deals: Deal[] = [];
  for (let n = FIRST; n <= LAST; n++) deals.push(r.pysol ? pysolDeal(n) : dealFromNumber(n, FULL_SIZE));
  const dealsLabel = r.pysol ? `PySolFC ${FIRST}..${LAST}` : `${FIRST}..${LAST}`;
  for (const s of SEARCHES) {
    if (s === 'dfs') rows.push(benchOne(r.text, dealsLabel, deals, r.rules, s, '', r.pysol));
    else for (const h of HEURISTIC_NAMES) rows.push(benchOne(r.text, dealsLabel, deals, r.rules, s, h, r.pysol));
  }
  for (const p of PRESET_NAMES) rows.push(benchOne(r.text, dealsLabel, deals, r.rules, `preset ${p}`, '', r.pysol));
}
const wall = (performance.now() - t0) / 1000;
const memoryAfter = memoryReadings();

const command = benchCommand('solve.js');
const cpu = cpus();
const lines: string[] = [
  '# Solver benchmark',
  '',
  `- command: \`${command}\``,
  `- machine: ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores (one used), node ${process.version}, ${platform()} ${release()}`,
  `- budget per deal: ${BUDGET} s${MAX_NODES !== undefined ? `, ${MAX_NODES} nodes` : ''}; table memory cap ${MAX_MEMORY} MB; size 2x13 12x3`,
  `- deals: ${RULES.map((r) => `${r.text} (${formatRules(r.rules)}): ${r.pysol ? `PySolFC game numbers ${FIRST}..${LAST}` : `deal numbers ${FIRST}..${LAST}`}`).join('; ')}`,
  `- ${COLD ? 'each deal in a new process (limited solve N --json): the times include compiling the solver' : 'one process, the deals one after another, after an untimed warm-up'}`,
  `- wall time: ${wall.toFixed(1)} s`,
  `- ${memoryLine(memoryBefore, memoryAfter, 'the run')}`,
  '',
  `| rules | deals | search | heuristic | decided % | won % | unsolvable % (by LockBound) | unknown % (nodes/time/memory) | nodes median / mean / max | ms median / mean / max |${COLD ? ' process ms median / mean / max |' : ''} nodes/s | bytes/state | errors |`,
  `|---|---|---|---|---:|---:|---:|---:|---:|---:|${COLD ? '---:|' : ''}---:|---:|---:|`,
];
for (const r of rows) {
  const n = r.verdicts.won + r.verdicts.unsolvable + r.verdicts.unknown + r.errors;
  lines.push(
    `| ${r.rules} | ${r.deals} | ${r.search} | ${r.heuristic} | ${pct(r.verdicts.won + r.verdicts.unsolvable, n)} | ${pct(r.verdicts.won, n)} | ` +
      `${pct(r.verdicts.unsolvable, n)} (${pct(r.byLocks, n)}) | ` +
      `${pct(r.verdicts.unknown, n)} (${r.limits.nodes}/${r.limits.time}/${r.limits.memory}) | ` +
      `${int(median(r.nodes))} / ${int(mean(r.nodes))} / ${int(max(r.nodes))} | ` +
      `${ms(median(r.ms))} / ${ms(mean(r.ms))} / ${ms(max(r.ms))} | ` +
      (COLD ? `${ms(median(r.processMs))} / ${ms(mean(r.processMs))} / ${ms(max(r.processMs))} | ` : '') +
      `${int(r.totalSeconds > 0 ? r.totalNodes / r.totalSeconds : 0)} | ${(r.states > 0 ? r.tableBytes / r.states : 0).toFixed(1)} | ${r.errors} |`,
  );
}
lines.push(
  '',
  'decided = won + unsolvable; unsolvable = proved: a complete search exhausted (sound pruning only),',
  'or LockBound before any search (that share in brackets); unknown = a budget ran out (counts by',
  'limit in brackets); errors = solutions that failed to verify (solver bugs).',
  'ms = the seconds the search reported;' + (COLD ? ' process ms = each `limited solve` process from its start to its exit (Node, loading the CLI, the search, the verified solution printed).' : ''),
  'nodes/s = all nodes expanded / all seconds searched; bytes/state = the mean over all stored',
  "states of each deal's table bytes per state (its keys or their signatures, and the index its",
  "states need; a preset's: all its stages' states), weighted by its states.",
);
const report = lines.join('\n') + '\n';
process.stdout.write(report);
args.writeOutputs([['out', OUT, () => report], ['csv', CSV, () => csvText(csvRows)]]);
if (rows.some((r) => r.errors > 0)) process.exitCode = 3;
