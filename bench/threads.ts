/**
 * One deal on several cores: each deal solved by `limited solve DEAL --threads T --json` at each
 * thread count, one run at a time, each in a process of its own (as a user solves one deal), and
 * the time to a verdict compared with one thread.
 *
 *   node dist/bench/threads.js                                  # the default deals at 1, 2, 4, 8, 16 threads
 *   node dist/bench/threads.js --threads 1,2 --deal-list 3734,9876 --out results/solve/threads.md --csv results/solve/threads.csv
 *
 * Every run is the prove preset's search (depth-first search on exact keys, LockBound at every
 * position) with `--max-seconds` and `--max-memory` as its budgets and no node budget, in a
 * process of its own. One thread runs it twice: on the ordinary table (`limited solve DEAL
 * --preset prove`, the single-threaded solve) and on the shared table (`solveParallel` on one
 * thread, which `limited solve --threads 1` leaves to the ordinary solve: this script runs it in a
 * child of its own, `--run`), so that the shared table's cost on one thread shows; T > 1 runs
 * `limited solve DEAL --threads T`. Speed-up at T = seconds at one thread on the shared table / seconds at T, for
 * runs that both decided the deal; the overall figure is the median over the deals. A thread
 * count above the machine's cores is run all the same (the report says how many cores there are).
 * Nothing is built at run time: the script runs the CLI beside it in dist/.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { csvText } from '../src/batch/csv.js';
import { machine } from '../src/batch/machine.js';
import { FULL_SIZE, dealFromNumber, parseRules } from '../src/game/index.js';
import { solveParallel } from '../src/solver/parallel.js';
import { PRESETS } from '../src/solver/index.js';
import { benchArgs, benchCommand } from './args.js';
import { CLI } from './cli.js';

const USAGE = `usage: node dist/bench/threads.js [options]

  --deal-list LIST      comma-separated deal numbers (default "3734,9876,11039,13405":
                        book deals the prove preset proves lost in about 1-20 s on one core)
  --rules RULES         the rules (default "book")
  --threads LIST        comma-separated thread counts (default "1,2,4,8,16"); 1 is always run
  --max-seconds S       time budget per run (default 600)
  --max-memory MB       the table's memory cap per run (default 4096)
  --no-baseline         leave out the run on the ordinary table (--preset prove)
  --out FILE.md         also write the report to FILE.md
  --csv FILE.csv        also write one row a run: deal, table, threads, verdict, limit, seconds,
                        nodes, states, bytes_per_state
  -h, --help            this help
`;

const args = benchArgs('threads', USAGE, {
  'deal-list': { type: 'string', default: '3734,9876,11039,13405' },
  rules: { type: 'string', default: 'book' },
  threads: { type: 'string', default: '1,2,4,8,16' },
  'max-seconds': { type: 'string', default: '600' },
  'max-memory': { type: 'string', default: '4096' },
  'no-baseline': { type: 'boolean', default: false },
  // Internal: solve deal N on T threads with solveParallel in this process, print its JSON figures.
  run: { type: 'string' },
  out: { type: 'string' },
  csv: { type: 'string' },
}, { deals: '--deal-list LIST' });
const values = args.values;
const list = (name: string): number[] => {
  const items = (values[name] as string).split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0) args.fail(`--${name} is empty`);
  return items.map((s) => args.wholeNumber(name, s));
};
const DEALS = list('deal-list');
const THREADS = [...new Set([1, ...list('threads')])].sort((a, b) => a - b);
if (THREADS.some((t) => t > 64)) args.fail('--threads: at most 64 threads');
const RULES = values.rules as string;
const SECONDS = args.positiveNumber('max-seconds', values['max-seconds'] as string);
const MEMORY = args.positiveNumber('max-memory', values['max-memory'] as string);
const BASELINE = values['no-baseline'] !== true;
const OUT = values.out as string | undefined;
const CSV = values.csv as string | undefined;
args.checkOutputs([['out', OUT], ['csv', CSV]]);

if (values.run !== undefined) {
  const [deal, threads] = (values.run as string).split(',').map(Number) as [number, number];
  const r = await solveParallel(dealFromNumber(deal, FULL_SIZE), parseRules(RULES), { ...PRESETS.prove?.options, maxNodes: Infinity, maxSeconds: SECONDS, maxMemoryMB: MEMORY }, { threads });
  process.stdout.write(JSON.stringify({ ...r, moves: null, limit: r.limit ?? null }) + '\n');
  process.exit(0);
}

interface Run {
  deal: number;
  /** 'ordinary' (--preset prove, one thread) or 'shared' (--threads T). */
  table: 'ordinary' | 'shared';
  threads: number;
  verdict: string;
  limit: string | null;
  seconds: number;
  nodes: number;
  states: number;
  bytesPerState: number;
}

/**
 * One run in a process of its own: the CLI, or (one thread on the shared table) this script with
 * --run. A failure to run is the run's fault (exit 1), a solution that fails to verify too.
 */
function solve(deal: number, table: Run['table'], threads: number): Run {
  const budgets = ['--rules', RULES, '--max-seconds', String(SECONDS), '--max-memory', String(MEMORY)];
  const argv =
    table === 'ordinary'
      ? [CLI, 'solve', String(deal), ...budgets, '--preset', 'prove', '--json']
      : threads === 1
        ? [fileURLToPath(import.meta.url), '--run', `${deal},1`, ...budgets]
        : [CLI, 'solve', String(deal), ...budgets, '--preset', 'prove', '--json', '--threads', String(threads)];
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) args.bad(`node ${argv.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr.trim()}`);
  const j = JSON.parse(r.stdout) as Omit<Run, 'deal' | 'table' | 'threads'>;
  return { deal, table, threads, verdict: j.verdict, limit: j.limit, seconds: j.seconds, nodes: j.nodes, states: j.states, bytesPerState: j.bytesPerState };
}

const progress = process.stderr.isTTY === true;
const runs: Run[] = [];
const t0 = performance.now();
const loadBefore = loadavg()[0]!;
for (const deal of DEALS) {
  const plan: [Run['table'], number][] = [...(BASELINE ? [['ordinary', 1] as [Run['table'], number]] : []), ...THREADS.map((t) => ['shared', t] as [Run['table'], number])];
  for (const [table, threads] of plan) {
    if (progress) process.stderr.write(`\rdeal ${deal}: ${table === 'ordinary' ? 'ordinary table' : `${threads} threads`}   `);
    runs.push(solve(deal, table, threads));
  }
}
if (progress) process.stderr.write('\r\x1b[K');
const wall = (performance.now() - t0) / 1000;
const loadAfter = loadavg()[0]!;

const decided = (r: Run | undefined): boolean => r !== undefined && r.verdict !== 'unknown';
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const int = (x: number): string => Math.round(x).toLocaleString('en-US');
const fixed = (x: number, d: number): string => (Number.isFinite(x) ? x.toFixed(d) : '–');
const verdictText = (r: Run): string => (r.verdict === 'unknown' ? `unknown (${r.limit})` : r.verdict);
const one = (deal: number): Run | undefined => runs.find((r) => r.deal === deal && r.table === 'shared' && r.threads === 1);
/** Speed-up of a run over one thread on the shared table, when both decided the deal. */
const speedUp = (r: Run): number => {
  const base = one(r.deal);
  return decided(base) && decided(r) && r.seconds > 0 ? base!.seconds / r.seconds : NaN;
};

const m = machine();
const lines = [
  '# One deal on several cores',
  '',
  `- command: \`${benchCommand('threads.js')}\``,
  `- machine: ${m.cpu}, ${m.cores} cores, node ${m.node}, ${m.platform}; load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
  `- each run: \`limited solve DEAL --rules ${RULES} --preset prove --max-seconds ${SECONDS} --max-memory ${MEMORY} --json\`, with \`--threads T\` on the shared table (one thread on it: this script's \`--run DEAL,1\`); a process a run`,
  `- wall time: ${wall.toFixed(1)} s`,
  '',
  '| deal | table | threads | verdict | seconds | speed-up | nodes | nodes/s | states | bytes/state |',
  '|---:|---|---:|---|---:|---:|---:|---:|---:|---:|',
];
for (const r of runs) {
  lines.push(
    `| ${r.deal} | ${r.table} | ${r.threads} | ${verdictText(r)} | ${r.seconds.toFixed(2)} | ${r.table === 'shared' ? fixed(speedUp(r), 2) : '–'} | ` +
      `${int(r.nodes)} | ${int(r.seconds > 0 ? r.nodes / r.seconds : 0)} | ${int(r.states)} | ${r.bytesPerState.toFixed(1)} |`,
  );
}
lines.push('', '| threads | deals decided | median speed-up | median nodes/s |', '|---:|---:|---:|---:|');
if (BASELINE) {
  const base = runs.filter((r) => r.table === 'ordinary');
  lines.push(`| 1 (ordinary table) | ${base.filter(decided).length} of ${base.length} | – | ${int(median(base.map((r) => r.nodes / r.seconds)))} |`);
}
for (const t of THREADS) {
  const at = runs.filter((r) => r.table === 'shared' && r.threads === t);
  const ups = at.map(speedUp).filter((x) => Number.isFinite(x));
  lines.push(`| ${t} | ${at.filter(decided).length} of ${at.length} | ${fixed(median(ups), 2)} | ${int(median(at.map((r) => r.nodes / r.seconds)))} |`);
}
lines.push(
  '',
  'seconds: the solve\'s own (`seconds` in --json; on threads, from their start to the verdict, their start included).',
  'speed-up: seconds on one thread (shared table) / seconds on T threads, for runs that both decided the deal;',
  'the summary gives the median over the deals. nodes/s: all threads\' nodes / seconds. bytes/state: the',
  'table\'s (the shared table is allocated at once at its cap; see docs/SOLVER.md, "One deal on every core").',
);
const report = lines.join('\n') + '\n';
process.stdout.write(report);
const csvRows: (string | number)[][] = [['deal', 'table', 'threads', 'verdict', 'limit', 'seconds', 'nodes', 'states', 'bytes_per_state']];
for (const r of runs) csvRows.push([r.deal, r.table, r.threads, r.verdict, r.limit ?? '', +r.seconds.toFixed(3), r.nodes, r.states, r.bytesPerState]);
args.writeOutputs([['out', OUT, () => report], ['csv', CSV, () => csvText(csvRows)]]);
