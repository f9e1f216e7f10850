/**
 * What more time gives: a random sample of the deals that `bench/solve.js` reports left unknown
 * (`--dir`, default results/solve), each solved again with a much larger budget, and how many
 * of them are decided within 2, 5, 10, 30, ... seconds. From the share of the sample, an
 * estimate of the share of all the files' deals that each budget would decide, and win.
 *
 *   node dist/bench/longer.js --rules book --sample 60 --max-seconds 120 --workers 2
 *   node dist/bench/longer.js --rules pysol --budget '5 s' --sample 30 --max-seconds 60 --out X.md --csv X.csv
 *
 * The pool: the CSV rows of `preset P` (`--preset`, default the solver's default preset) under
 * rules R (`--rules`) whose verdict is `unknown`, in the reports of one budget (`--budget`, as
 * the reports write it, e.g. "1 s"; it may be left out when the reports of R have only one).
 * The sample: those deals in order of their numbers, shuffled by Fisher–Yates with
 * seedrandom(SEED) (`--seed`), the first N (`--sample`). Each is solved by `limited solve` in a
 * process of its own (`--workers` at a time, side by side) with the preset, `--max-seconds` and the
 * memory cap `--max-memory`, and `--max-nodes` when given.
 *
 * A deal decided after t seconds of the long budget counts as decided within any budget of t
 * seconds or more. That holds as far as the clock repeats itself: under a time budget the
 * preset's stages take turns by their shares of the time spent so far, which does not depend on
 * the budget, and the search that takes over a deal that looks lost does so after a number of
 * nodes. Each deal here pays for compiling the solver in its new process (its first half
 * second runs slow while V8 compiles: README, "Solving a deal"), which the reports'
 * one-process runs did not.
 */
import { spawn } from 'node:child_process';
import { cpus, platform, release } from 'node:os';
import seedrandom from 'seedrandom';
import { benchArgs, benchCommand } from './args.js';
import { readReports } from './reports.js';
import { solveArgs } from './cli.js';
import { shuffle } from '../src/game/index.js';
import { csvText } from '../src/batch/csv.js';
import { memoryLine, memoryReadings } from '../src/batch/machine.js';
import { wilsonHigh, wilsonLow } from '../src/batch/stats.js';
import { DEFAULT_PRESET, PRESETS } from '../src/solver/index.js';

const USAGE = `usage: node dist/bench/longer.js --rules R [options]

  --dir DIR          where the bench/solve.js reports are (default results/solve): each
                     X.md with X.csv beside it
  --rules R          the rules of the rows to take, as the reports name them (book, pysol, ...)
  --budget B         the reports' budget per deal, as they write it ("1 s", "5 s"); needed
                     only when the reports of R have more than one
  --preset P         whose rows to take, and the preset to solve with (default: the
                     solver's default preset, ${DEFAULT_PRESET})
  --sample N         how many of the unknown deals to draw (default 30; all of them if fewer)
  --seed S           the seed of the draw (default "longer")
  --max-seconds S    the long budget, seconds a deal (default 120)
  --max-nodes N      a node budget a deal as well (default: none)
  --max-memory MB    the solver's memory cap a deal (default 4096)
  --workers N        deals solved at a time, each in a process of its own (default 1)
  --out FILE.md      also write the report to FILE.md
  --csv FILE.csv     also write one row a deal: rules, deal, verdict, proof, limit, nodes,
                     states, seconds, best_home
  -h, --help         this help
`;

const args = benchArgs('longer', USAGE, {
  dir: { type: 'string', default: 'results/solve' },
  rules: { type: 'string' },
  budget: { type: 'string' },
  preset: { type: 'string', default: DEFAULT_PRESET },
  sample: { type: 'string', default: '30' },
  seed: { type: 'string', default: 'longer' },
  'max-seconds': { type: 'string', default: '120' },
  'max-nodes': { type: 'string' },
  'max-memory': { type: 'string', default: '4096' },
  workers: { type: 'string', default: '1' },
  out: { type: 'string' },
  csv: { type: 'string' },
}, { seconds: '--max-seconds S' });
const v = args.values;
const fail: (message: string) => never = args.fail;
if (v.rules === undefined) fail('--rules is required (see --help)');
const RULES = v.rules as string;
const PRESET = v.preset as string;
if (!Object.hasOwn(PRESETS, PRESET)) fail(`unknown --preset '${PRESET}' (${Object.keys(PRESETS).join(', ')})`);
const SEARCH = `preset ${PRESET}`;
const SAMPLE = args.wholeNumber('sample', v.sample as string);
const SEED = v.seed as string;
const SECONDS = args.positiveNumber('max-seconds', v['max-seconds'] as string);
const MAX_NODES = v['max-nodes'] !== undefined ? args.wholeNumber('max-nodes', v['max-nodes'] as string) : undefined;
const MAX_MEMORY = args.positiveNumber('max-memory', v['max-memory'] as string);
const WORKERS = args.wholeNumber('workers', v.workers as string);
const OUT = v.out as string | undefined;
const CSV = v.csv as string | undefined;
// Fail before the long run, not after it, when --out or --csv cannot be written.
args.checkOutputs([['out', OUT], ['csv', CSV]]);
const PYSOL = RULES.trim().split(/\s+/)[0]!.toLowerCase() === 'pysol';

// The reports of R at one budget.
const bad: (message: string) => never = args.bad;
const all = readReports(v.dir as string, SEARCH, fail, bad).parts.filter((p) => p.rules === RULES);
const budgets = [...new Set(all.map((p) => p.budget))].sort();
if (budgets.length === 0) fail(`no report in '${v.dir as string}' has rows of ${SEARCH} under rules '${RULES}' with its CSV beside it`);
const BUDGET = (v.budget as string | undefined) ?? (budgets.length === 1 ? budgets[0]! : fail(`the reports of ${RULES} have budgets ${budgets.map((b) => `'${b}'`).join(', ')}: choose one with --budget`));
const parts = all.filter((p) => p.budget === BUDGET).sort((a, b) => a.rows[0]!.deal - b.rows[0]!.deal);
if (parts.length === 0) fail(`no report of ${RULES} has the budget '${BUDGET}' (${budgets.map((b) => `'${b}'`).join(', ')})`);
const rows = parts.flatMap((p) => p.rows);
const deals = rows.map((r) => r.deal);
if (new Set(deals).size !== deals.length) bad(`the reports of ${RULES} at ${BUDGET} share deals: a deal would be counted twice`);
const population = {
  deals: rows.length,
  won: rows.filter((r) => r.verdict === 'won').length,
  lost: rows.filter((r) => r.verdict === 'unsolvable').length,
};
const pool = rows.filter((r) => r.verdict === 'unknown').map((r) => r.deal).sort((a, b) => a - b);
if (pool.length === 0) fail(`the reports of ${RULES} at ${BUDGET} leave no deal unknown`);

// The draw: Fisher–Yates over the pool in deal order (as deal numbers shuffle their deck), the first SAMPLE.
const sample = shuffle([...pool], seedrandom(SEED)).slice(0, SAMPLE);

/** What `limited solve --json` says of a deal. */
interface Outcome {
  deal: number;
  verdict: string;
  proof: string | null;
  limit: string | null;
  nodes: number;
  states: number;
  seconds: number;
  bestHome: number;
}

/** One deal by `limited solve` in a process of its own; a solution that fails to verify is an error row. */
function solve(deal: number): Promise<Outcome> {
  const cli = solveArgs(PYSOL ? ['--pysol', String(deal)] : [String(deal)], RULES, { preset: PRESET, maxSeconds: SECONDS, maxMemoryMB: MAX_MEMORY, maxNodes: MAX_NODES });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cli, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code, signal) => {
      if (code === 3) {
        process.stderr.write(`longer bench: deal ${deal}: ${err.trim()}\n`);
        resolve({ deal, verdict: 'error', proof: null, limit: null, nodes: 0, states: 0, seconds: 0, bestHome: 0 });
        return;
      }
      if (code !== 0) bad(`limited solve ${deal} --rules '${RULES}' exited with ${code ?? signal}: ${err.trim()}`);
      const j = JSON.parse(out) as Omit<Outcome, 'deal'>;
      resolve({ deal, verdict: j.verdict, proof: j.proof, limit: j.limit, nodes: j.nodes, states: j.states, seconds: j.seconds, bestHome: j.bestHome });
    });
  });
}

const memoryBefore = memoryReadings();
const t0 = performance.now();
const outcomes: Outcome[] = [];
let next = 0;
const progress = process.stderr.isTTY === true;
async function worker(): Promise<void> {
  while (next < sample.length) {
    const deal = sample[next++]!;
    const o = await solve(deal);
    outcomes.push(o);
    if (progress) process.stderr.write(`\r${outcomes.length}/${sample.length}: deal ${deal} ${o.verdict} in ${o.seconds.toFixed(1)} s   `);
  }
}
await Promise.all(Array.from({ length: Math.min(WORKERS, sample.length) }, worker));
if (progress) process.stderr.write('\r\x1b[K');
const wall = (performance.now() - t0) / 1000;
const memoryAfter = memoryReadings();
outcomes.sort((a, b) => a.deal - b.deal);

const pct = (x: number): string => (100 * x).toFixed(1);
const int = (x: number): string => x.toLocaleString('en-US');
const n = sample.length;
const baseSeconds = Number(/^([\d.]+) s/.exec(BUDGET)?.[1] ?? NaN);
const marks = [2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600].filter((t) => t < SECONDS && !(t <= baseSeconds));
marks.push(SECONDS);
const decided = (o: Outcome): boolean => o.verdict === 'won' || o.verdict === 'unsolvable';
const u = pool.length;
const N = population.deals;
/** The files' share, with the sample's share k/n of the unknown deals added: its estimate and 95 % interval. */
const estimate = (base: number, k: number): string =>
  `${pct((base + (u * k) / n) / N)} % (${pct((base + u * wilsonLow(k, n)) / N)}-${pct((base + u * wilsonHigh(k, n)) / N)} %)`;
const cpu = cpus();
const lines: string[] = [
  '# The deals a budget left unknown, given more time',
  '',
  `- command: \`${benchCommand('longer.js')}\``,
  `- machine: ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, node ${process.version}, ${platform()} ${release()}; ${WORKERS} deal${WORKERS === 1 ? '' : 's'} at a time, each in a process of its own`,
  `- from: the rows of \`${SEARCH}\` under ${RULES} at ${BUDGET} a deal in ${parts.map((p) => p.file).join(', ')} (${v.dir as string}): ${int(N)} deals, ${int(population.won + population.lost)} decided (${pct((population.won + population.lost) / N)} %: ${int(population.won)} won, ${int(population.lost)} proved lost), ${int(u)} unknown`,
  `- sample: ${n} of the ${int(u)} unknown deals, drawn by seedrandom('${SEED}') (a Fisher–Yates shuffle of them in deal order; the first ${n}), each solved by \`limited solve\` with the preset ${PRESET} at ${SECONDS} s${MAX_NODES !== undefined ? ` and ${MAX_NODES} nodes` : ''} a deal, memory cap ${MAX_MEMORY} MB`,
  `- wall time: ${wall.toFixed(1)} s`,
  `- ${memoryLine(memoryBefore, memoryAfter, 'the run')}`,
  '',
  '## Decided within a budget',
  '',
  `| within | decided of the ${n} | won | proved lost | share decided (95 % interval) | all ${int(N)} deals: decided, estimated | won, estimated |`,
  '|---|---:|---:|---:|---:|---:|---:|',
  `| ${BUDGET} (the reports) | 0 | 0 | 0 | – | ${pct((population.won + population.lost) / N)} % | ${pct(population.won / N)} % |`,
];
for (const t of marks) {
  const within = outcomes.filter((o) => decided(o) && o.seconds <= t);
  const won = within.filter((o) => o.verdict === 'won').length;
  const k = within.length;
  lines.push(
    `| ${t} s | ${k} | ${won} | ${k - won} | ${pct(k / n)} % (${pct(wilsonLow(k, n))}-${pct(wilsonHigh(k, n))} %) | ${estimate(population.won + population.lost, k)} | ${estimate(population.won, won)} |`,
  );
}
lines.push(
  '',
  `A deal decided after t seconds counts within every budget of t s or more (see bench/longer.ts). The`,
  `estimates add the sample's share, with its 95 % Wilson interval, of the ${int(u)} unknown deals to what the`,
  `reports decided. Proved lost = unsolvable: a complete search exhausted, or LockBound.`,
  '',
  '## The deals',
  '',
  '| deal | verdict | proof or limit | seconds | nodes | cards home at best |',
  '|---:|---|---|---:|---:|---:|',
);
for (const o of outcomes) {
  lines.push(`| ${PYSOL ? `pysol ${o.deal}` : o.deal} | ${o.verdict} | ${o.proof ?? o.limit ?? ''} | ${o.seconds.toFixed(2)} | ${int(o.nodes)} | ${o.bestHome} |`);
}
const report = lines.join('\n') + '\n';
process.stdout.write(report);
const csv = (): string =>
  csvText([
    ['rules', 'deal', 'verdict', 'proof', 'limit', 'nodes', 'states', 'seconds', 'best_home'],
    ...outcomes.map((o) => [RULES, PYSOL ? `pysol ${o.deal}` : o.deal, o.verdict, o.proof ?? '', o.limit ?? '', o.nodes, o.states, o.seconds, o.bestHome]),
  ]);
args.writeOutputs([['out', OUT, () => report], ['csv', CSV, csv]]);
if (outcomes.some((o) => o.verdict === 'error')) process.exitCode = 3;
