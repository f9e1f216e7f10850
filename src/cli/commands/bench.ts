import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { type Command, Option } from 'commander';
import { type Rules, type Size, FULL_SIZE, MAX_DEAL_NUMBER, UserError, formatSize, parseDealNumber, parseRules, parseSize, plural, sizeEqual } from '../../game/index.js';
import { HEURISTICS } from '../../solver/heuristics.js';
import { DEFAULT_OPTIONS } from '../../solver/index.js';
import { type BenchConfig } from '../../compare/result.js';
import { prepareOutDir, runBench } from '../../compare/run.js';
import { parseHeuristics } from '../../compare/heuristics.js';
import { formatReport } from '../../compare/report.js';
import { type DealList, loadSet, rangeList, setNames } from '../../compare/sets.js';
import { reportSolutionBug, run } from '../exit.js';
import { examples, prefixed, retireOptions } from '../options.js';
import { out, outJson, warnWorkers } from '../output.js';
import { positiveInteger, positiveNumber, workersOption } from '../numbers.js';
import { commandLine } from './batch.js';
import { usefulMemoryMB } from '../../solver/memory-floor.js';

/** What `npm run bench` runs: this set, every built-in heuristic, best-first, this node budget. */
export const STANDARD_SET = 'book-1k';
export const STANDARD_MAX_NODES = 20_000;

export interface BenchCliOptions {
  from?: string;
  count?: string;
  pysolRange?: string;
  dealSet?: string;
  rules?: string;
  size?: string;
  heuristics?: string;
  search?: 'best' | 'dfs';
  maxNodes?: string;
  maxSeconds?: string;
  maxMemory?: string;
  workers?: string;
  chunk?: string;
  outDir?: string;
  force?: boolean;
  json?: boolean;
  progress?: boolean;
}

/** The most deals a benchmark takes from a range (--from/--count, --pysol-range). */
const MAX_BENCH_DEALS = 10_000_000;

/** `1-1000` -> [1, 1000] (A <= B). */
function parseRange(option: string, text: string, min: number): [number, number] {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  if (!m) throw new UserError(`${option} must be A-B (from A to B), e.g. 1-1000, not '${text}'`);
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a < min || b < a || b > MAX_DEAL_NUMBER)
    throw new UserError(`${option} ${text}: need ${min} <= A <= B <= ${MAX_DEAL_NUMBER}`);
  if (b - a >= MAX_BENCH_DEALS) throw new UserError(`${option} ${text}: at most 10,000,000 deals`);
  return [a, b];
}

/** `--from A --count N` -> [A, A+N-1], as batch reads them. */
function fromCount(o: BenchCliOptions): [number, number] {
  if (o.from === undefined || o.count === undefined) throw new UserError('give both --from A and --count N (deal numbers A to A+N-1)');
  const from = prefixed('--from', () => parseDealNumber(o.from!));
  const count = positiveInteger('--count', o.count);
  if (count > MAX_BENCH_DEALS) throw new UserError(`--count ${count}: at most 10,000,000 deals`);
  if (count - 1 > MAX_DEAL_NUMBER - from) throw new UserError(`--from ${from} --count ${count} goes past the last deal number ${MAX_DEAL_NUMBER}`);
  return [from, from + count - 1];
}

/** The benchmark to run from the command line's options. Throws UserError. */
export function benchConfig(o: BenchCliOptions, args: readonly string[]): BenchConfig {
  const range = o.from !== undefined || o.count !== undefined;
  const given = [range && '--from/--count', o.pysolRange !== undefined && '--pysol-range', o.dealSet !== undefined && '--deal-set'].filter(Boolean);
  if (given.length > 1) throw new UserError(`give one of --from/--count, --pysol-range and --deal-set, not ${given.join(' and ')}`);
  const rulesOpt: Rules | undefined = o.rules !== undefined ? prefixed('--rules', () => parseRules(o.rules!)) : undefined;
  const sizeOpt: Size | undefined = o.size !== undefined ? prefixed('--size', () => parseSize(o.size!, ',')) : undefined;
  let list: DealList;
  if (range) {
    const [a, b] = fromCount(o);
    list = rangeList('v1', a, b, rulesOpt ?? parseRules('book'), sizeOpt ?? FULL_SIZE);
  } else if (o.pysolRange !== undefined) {
    const [a, b] = parseRange('--pysol-range', o.pysolRange, 1);
    if (sizeOpt && !sizeEqual(sizeOpt, FULL_SIZE)) throw new UserError(`--size ${formatSize(sizeOpt)} disagrees with --pysol-range, whose deals have size ${formatSize(FULL_SIZE)}`);
    list = rangeList('pysol', a, b, rulesOpt ?? parseRules('pysol'), FULL_SIZE);
  } else {
    list = loadSet(o.dealSet ?? STANDARD_SET);
    if (sizeOpt && !sizeEqual(sizeOpt, list.size)) throw new UserError(`--size ${formatSize(sizeOpt)} disagrees with deal set '${list.name}', whose deals have size ${formatSize(list.size)}`);
  }
  const rules = rulesOpt ?? list.rules;
  const heuristics = parseHeuristics(o.heuristics ?? Object.keys(HEURISTICS).join(','));
  const search = o.search ?? 'best';
  const maxSeconds = o.maxSeconds !== undefined ? positiveNumber('--max-seconds', o.maxSeconds) : undefined;
  const maxNodes = o.maxNodes !== undefined ? positiveInteger('--max-nodes', o.maxNodes) : maxSeconds === undefined ? STANDARD_MAX_NODES : undefined;
  const maxMemoryMB = o.maxMemory !== undefined ? usefulMemoryMB('--max-memory', positiveNumber('--max-memory', o.maxMemory)) : undefined;
  const workers = workersOption(o.workers);
  const chunk = o.chunk !== undefined ? positiveInteger('--chunk', o.chunk) : undefined;
  if (o.outDir === '' || o.outDir === '-') throw new UserError(`--out-dir needs a directory ('-' is not accepted: the table goes to stdout)`);
  const outDir = o.outDir ?? `results/bench-${list.name}`;
  return {
    list,
    rules,
    heuristics,
    solver: {
      search,
      ...(maxNodes !== undefined ? { maxNodes } : {}),
      ...(maxSeconds !== undefined ? { maxSeconds } : {}),
      ...(maxMemoryMB !== undefined ? { maxMemoryMB } : {}),
    },
    workers,
    ...(chunk !== undefined ? { chunk } : {}),
    outDir,
    force: o.force === true,
    progress: o.progress !== false,
    command: commandLine(args),
  };
}

export function registerBench(program: Command): void {
  const sets = setNames();
  const cmd = program
    .command('bench')
    .description('compare heuristics: every heuristic searches the same deals with the same budget (all cores); a table, bench.csv and a chart')
    .option('--from <a>', 'first deal number, with --count (rules default to book)')
    .option('--count <n>', 'number of deals: --from A --count N benchmarks deals A to A+N-1, at most 10,000,000')
    .option('--pysol-range <a-b>', `PySolFC game numbers A to B, 1 <= A <= B <= ${MAX_DEAL_NUMBER}, at most 10,000,000 games (plain game numbers: no ms ones; rules default to 'pysol')`)
    .option('--deal-set <name>', `a named deal set of bench/sets (${sets.length > 0 ? sets.join(', ') : 'none found'}) or a set file's path (default ${STANDARD_SET})`)
    .option('--rules <rules>', "a preset (book, pysol) and/or option=value words (default: the set's rules)")
    .option('--size <size>', "deck and layout DxR,CxW of --from/--count, e.g. '1x5,4x3' (default 2x13,12x3)")
    .option('--heuristics <list>', `comma-separated built-in names (${Object.keys(HEURISTICS).join(', ')}) and module paths (./my-heuristic.js); the first is the baseline of the paired comparison (default: all built-in ones)`)
    .addOption(new Option('--search <kind>', 'best (best-first, ordered by each heuristic) or dfs (depth-first: ignores heuristics)').choices(['best', 'dfs']).default('best'))
    .option('--max-nodes <n>', `node budget per search (default ${STANDARD_MAX_NODES} unless --max-seconds is given)`)
    .option('--max-seconds <s>', 'time budget per search, seconds (the figures then depend on the machine and its load)')
    .option('--max-memory <mb>', `memory cap of each search's table of states, megabytes, as for 'limited solve --max-memory' (default ${DEFAULT_OPTIONS.maxMemoryMB})`)
    .option('--workers <n>', `worker threads (default: the number of cores, ${availableParallelism()} here)`)
    .option('--chunk <k>', 'deals handed to a worker at a time (default: about 32 searches a chunk)')
    .option('--out-dir <dir>', 'directory for bench.csv, bench.svg, bench.txt and bench.json (default results/bench-SET)')
    .option('--force', 'replace an earlier benchmark in --out-dir (otherwise refused)')
    .option('--json', 'print the report as one JSON object (the fields of bench.json) instead of the table')
    .option('--no-progress', 'no progress on stderr');
  retireOptions(cmd, [['--deals', '--from A --count N (deal numbers A to A+N-1)'], ['--out', '--out-dir DIR']]);
  cmd
    .addHelpText(
      'after',
      examples(
        'limited bench                                                  # the standard benchmark (npm run bench), in results/bench-book-1k',
        "echo 'export default (g) => 4 * g.home - g.wasteLen' > my-heuristic.js && limited bench --from 1 --count 200 --heuristics waste,blend,./my-heuristic.js --max-nodes 50000",
        'limited bench --deal-set hard-100 --heuristics wasteDealt,waste --max-nodes 500000 --out-dir results/hard',
        'limited bench --deal-set pysol-1k --heuristics home,mobility --max-seconds 0.5',
        'limited bench --from 1 --count 20 --size 1x5,4x3 --heuristics waste,home --max-nodes 500 --json',
      ) +
        `
A heuristic module is compiled JavaScript whose default export (or export 'heuristic') is a
function (g: Game) => number: higher is better; an integer from -2^20 to 2^20; it reads the
game (cols, len, orig, found, home, phase, waste, priv, ...) and must not change it or
allocate. A .ts under this package's src/ or bench/ is taken from its build under dist/;
compile any other .ts first. See src/solver/heuristics.ts and the README.

Output: a table per heuristic (decided %, won %, unknown %, median / mean / p90 nodes and
ms per deal, nodes per second), a paired comparison with the first heuristic (deals only one
decided, median node ratio on deals both decided, sign test), the bench signature (total
nodes: with a node budget the same on every machine), and in --out-dir: bench.csv (one row
per deal and heuristic), bench.svg (deals decided against node budget), bench.txt, bench.json.
An earlier benchmark there is refused unless --force (a benchmark does not resume); a file of
those names that is not a benchmark's (no bench.json of limited bench beside it) is refused
even with --force (exit 2).
Exit status: 0 done, 2 bad input (a bad heuristic module: one line naming it), 3 a solution
that fails to verify (a solver bug), 130/143 interrupted (SIGINT/SIGTERM: nothing is written,
the files of an earlier benchmark in --out-dir are kept).
`,
      )
    .action(
      run(async (o: BenchCliOptions) => {
        const cfg = benchConfig(o, process.argv.slice(2));
        // Before the line that says the run starts: a bad --out-dir stays the one line it is.
        prepareOutDir(cfg.outDir, cfg.force);
        warnWorkers(cfg.workers);
        const b = cfg.solver;
        process.stderr.write(
          `limited bench: ${cfg.list.name} (${plural(cfg.list.deals.length, 'deal')}), ${plural(cfg.heuristics.length, 'heuristic')}, search=${b.search}, ` +
            `${[b.maxNodes !== undefined ? `max ${b.maxNodes} nodes` : '', b.maxSeconds !== undefined ? `max ${b.maxSeconds} s` : ''].filter(Boolean).join(', ')} a search -> ${cfg.outDir}\n`,
        );
        try {
          const r = await runBench(cfg);
          // The object of bench.json itself, as written.
          if (o.json) outJson(JSON.parse(readFileSync(r.files.json, 'utf8')));
          else out(formatReport(r));
        } catch (e) {
          if (reportSolutionBug(e)) return;
          throw e;
        }
      }),
    );
}
