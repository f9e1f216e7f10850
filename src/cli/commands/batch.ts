import { availableParallelism } from 'node:os';
import { type Command, Option } from 'commander';
import {
  type Rules, type Size, BOOK, FULL_SIZE, MAX_DEAL_NUMBER, PYSOL, UserError, formatSize, parseDealNumber, parseRules, parseSize, plural, shown, sizeEqual,
} from '../../game/index.js';
import { HEURISTICS } from '../../solver/heuristics.js';
import { DEFAULT_PRESET, PRESETS, SEARCHES } from '../../solver/index.js';
import { NO_RESTRICTION } from '../../game/tactics.js';
import { type BatchConfig, MAX_CHUNK, runBatch } from '../../batch/run.js';
import { checkWritable, prepareOut } from '../../util/fileio.js';
import { nameSlug, withTag } from '../../batch/names.js';
import { type DealSourceKind, type JobSpec, playSpec, solveSpec } from '../../batch/job.js';
import { PLAYER_NAMES } from '../../play/index.js';
import { type DealRange, chooseShard, formatRange, shardPart, shardTag } from '../../batch/range.js';
import { formatSummary, rangeLabel } from '../../batch/report.js';
import { reportSolutionBug, run } from '../exit.js';
import { examples, prefixed } from '../options.js';
import { out, outJson, warnWorkers } from '../output.js';
import { positiveInteger, workersOption } from '../numbers.js';
import { type SolverFlags, SEARCH_KINDS, addTacticsOptions, requestFromFlags, tacticsFromFlags } from '../solver-flags.js';

export interface BatchCliOptions extends SolverFlags {
  from?: string;
  count?: string;
  pysolRange?: string;
  rules?: string;
  size?: string;
  workers?: string;
  player?: string;
  pile?: string;
  out?: string;
  shard?: string;
  shards?: string;
  chunk?: string;
  force?: boolean;
  certificates?: boolean;
  json?: boolean;
  progress?: boolean;
}

/** A word for the shell: quoted when it holds anything but safe characters. */
function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

export const commandLine = (args: readonly string[]): string => ['limited', ...args].map(shellWord).join(' ');

/** `--pysol-range 1-1000`: PySolFC game numbers A to B (1 <= A <= B). */
function parsePysolRange(text: string): DealRange {
  const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UserError(`--pysol-range must be A-B, PySolFC game numbers from A to B (1 <= A <= B), e.g. 1-1000, not '${shown(text)}'`);
  const a = Number(m[1]);
  const b = Number(m[2]);
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a < 1 || b < a || b > MAX_DEAL_NUMBER)
    throw new UserError(`--pysol-range ${shown(text)}: need 1 <= A <= B <= ${MAX_DEAL_NUMBER}`);
  return { from: a, count: b - a + 1 };
}

/** The batch to run from the command line's options (and the environment, for cluster shards). Throws UserError. */
export function batchConfig(o: BatchCliOptions, args: readonly string[], env: Record<string, string | undefined> = process.env): BatchConfig {
  // The deals.
  let source: DealSourceKind;
  let range: DealRange;
  if (o.pysolRange !== undefined) {
    if (o.from !== undefined || o.count !== undefined) throw new UserError('give either --pysol-range A-B or --from A --count N, not both');
    source = 'pysol';
    range = parsePysolRange(o.pysolRange);
  } else {
    if (o.from === undefined || o.count === undefined)
      throw new UserError(`give the deals: --from A --count N (deal numbers A to A+N-1), or --pysol-range A-B (PySolFC game numbers)`);
    source = 'v1';
    const from = prefixed('--from', () => parseDealNumber(o.from!));
    const count = positiveInteger('--count', o.count);
    // Compared as count - 1 > MAX - from: from + count can pass 2^53, where doubles round (2^53 - 1 + 2 - 1 gave 2^53 - 1).
    if (count - 1 > MAX_DEAL_NUMBER - from) throw new UserError(`--from ${from} --count ${count} goes past the last deal number ${MAX_DEAL_NUMBER}`);
    range = { from, count };
  }
  const rules: Rules = o.rules !== undefined ? prefixed('--rules', () => parseRules(o.rules!)) : source === 'pysol' ? PYSOL : BOOK;
  const size: Size = o.size !== undefined ? prefixed('--size', () => parseSize(o.size!, ',')) : FULL_SIZE;
  if (source === 'pysol' && !sizeEqual(size, FULL_SIZE))
    throw new UserError(`--size ${formatSize(size)} disagrees with --pysol-range, whose deals have size ${formatSize(FULL_SIZE)}`);
  // The solver, or a player.
  const spec = jobFromFlags(o, source, rules, size);
  // The pool.
  const workers = workersOption(o.workers);
  const chunk = o.chunk !== undefined ? positiveInteger('--chunk', o.chunk) : undefined;
  if (chunk !== undefined && chunk > MAX_CHUNK) throw new UserError(`--chunk must be at most ${MAX_CHUNK}, not ${chunk}`);
  // The shard and the file.
  const shards = o.shards !== undefined ? positiveInteger('--shards', o.shards) : undefined;
  const { shard, from: shardFrom } = chooseShard(o.shard, shards, env);
  let file = o.out ?? defaultOut(spec, range);
  if (file === '' || file === '-') throw new UserError(`--out needs a file name ('-' is not accepted: the summary goes to stdout)`);
  // The --out given (or the default) is checked as named; its directories are made for the shard's file too.
  prepareOut(file);
  if (shard) file = withTag(file, shardTag(shard));
  checkWritable(file);
  return {
    spec, range, shard, shardFrom, out: file, workers, ...(chunk !== undefined ? { chunk } : {}), ...(o.force === true ? { force: true } : {}),
    ...(o.certificates === true ? { certificates: true } : {}),
    progress: o.progress !== false, command: commandLine(args),
  };
}

/** The solver's options, which a player does not take. */
const SOLVER_FLAGS: readonly [keyof BatchCliOptions, string][] = [
  ['preset', '--preset'], ['search', '--search'], ['heuristic', '--heuristic'], ['maxNodes', '--max-nodes'], ['maxSeconds', '--max-seconds'], ['maxMemory', '--max-memory'],
];

/** The job of a batch: a blind player (`--player`) or the solver, with the tactics given. Throws UserError. */
export function jobFromFlags(o: BatchCliOptions, source: DealSourceKind, rules: Rules, size: Size): JobSpec {
  if (o.player === undefined) {
    if (o.pile !== undefined) throw new UserError(`--pile is a player's memory of the pile: add --player NAME (${PLAYER_NAMES.join(', ')})`);
    return solveSpec(source, rules, size, requestFromFlags(o));
  }
  for (const [key, flag] of SOLVER_FLAGS)
    if (o[key] !== undefined)
      throw new UserError(`${flag} is an option of the solver, not of a player: drop it with --player (a sampling player's search budget is in its spec, e.g. sampling:nodes=500)`);
  if (o.pile !== undefined && o.pile !== 'remembered' && o.pile !== 'forgotten')
    throw new UserError(`--pile must be remembered or forgotten, not '${o.pile}'`);
  const tactics = tacticsFromFlags(o);
  return prefixed('--player', () => playSpec(source, rules, size, o.player!, tactics, (o.pile ?? 'remembered') as 'remembered' | 'forgotten'));
}

/** The method's words that a default file name gives by their value alone (`fast`, not `preset-fast`). */
const NAMED_BY_VALUE = new Set(['player', 'preset', 'search', 'heuristic']);
/** The solver's and the players' choices that are their defaults, left out of a default file name. */
const DEFAULT_CHOICES = new Set([`preset=${DEFAULT_PRESET}`, `pairing=${NO_RESTRICTION.pairing}`, `spaces=${NO_RESTRICTION.spaces}`, 'pile=remembered']);

/**
 * The results file when --out is not given: results/NAME-A-B.csv. NAME says what plays the deals
 * (the player, or `batch` for the solver; `pysol` for PySolFC games) and every choice that is not
 * the default but the budgets: the preset or search, the tactics, a player's parameters and
 * pile, the rules when not the deals' own, the size when not the full one. So runs that differ
 * in those get files of their own (`greedy-pairing-cautious-spaces-hold-1-1000.csv`), and the defaults keep the
 * short names (`batch-1-1000.csv`, `greedy-1-1000.csv`); a run with another budget is refused
 * by name when it meets the file, as any resumed run is.
 */
export function defaultOut(spec: JobSpec, range: DealRange): string {
  const parts: string[] = [];
  for (const token of spec.method.split(' ')) {
    if (DEFAULT_CHOICES.has(token)) continue;
    // A player, a preset, a search or a heuristic by its name alone; a tactic as key-value.
    const eq = token.indexOf('=');
    parts.push(nameSlug(NAMED_BY_VALUE.has(token.slice(0, eq)) ? token.slice(eq + 1) : token));
  }
  if (!spec.player) parts.unshift(spec.source === 'pysol' ? 'pysol' : 'batch');
  else if (spec.source === 'pysol') parts.push('pysol');
  if (spec.rules !== (spec.source === 'pysol' ? 'pysol' : 'book')) parts.push(nameSlug(spec.rules));
  if (spec.size !== formatSize(FULL_SIZE)) parts.push(nameSlug(spec.size));
  return `results/${parts.join('-')}-${range.from}-${range.from + range.count - 1}.csv`;
}

/**
 * Runs a batch and prints its summary (with `json`, the summary object of FILE.summary.json);
 * sets the exit status (130/143 when interrupted, 3 for a solver bug).
 */
export async function runBatchCommand(cfg: BatchConfig, title = 'limited batch', json = false): Promise<void> {
  const part = shardPart(cfg.range, cfg.shard);
  const by = cfg.shardFrom && cfg.shardFrom !== '--shard' ? `, from ${cfg.shardFrom}` : '';
  const where = cfg.shard
    ? `${rangeLabel(cfg.spec.source, part)} (shard ${cfg.shard.index}/${cfg.shard.count} of ${formatRange(cfg.range)}${by})`
    : rangeLabel(cfg.spec.source, part);
  const b = cfg.spec.budgets;
  const what = cfg.spec.kind === 'play' ? cfg.spec.method : `${cfg.spec.method} (max ${b.maxNodes} nodes${b.maxSeconds !== null ? `, ${b.maxSeconds} s` : ''} a deal)`;
  const onStart = (i: { resumed: number; todo: number; workers: number; chunk: number }): void => {
    process.stderr.write(
      `${title}: ${where}, rules ${cfg.spec.rules}, ${what} -> ${cfg.out}` +
        (i.todo > 0 ? `; ${plural(i.todo, 'deal')} to do, ${plural(i.workers, 'worker')}, chunks of ${i.chunk}\n` : '; nothing left to do\n'),
    );
    // Said once the run starts, after every check of the options and the file: an error
    // before it stays the one line it is.
    if (i.todo > 0) warnWorkers(cfg.workers);
    if (b.maxSeconds !== null && i.todo > 0)
      process.stderr.write('limited: note: with --max-seconds the verdicts depend on the machine and its load (use --max-nodes for reproducible rows)\n');
  };
  let res;
  try {
    res = await runBatch({ ...cfg, onStart });
  } catch (e) {
    if (reportSolutionBug(e)) return;
    throw e;
  }
  if (res.status === 'interrupted') {
    process.stderr.write(
      `limited: interrupted (${res.signal}): ${res.summary.deals} of ${part.count} deals are in ${cfg.out}; run the same command again to resume\n`,
    );
    process.exitCode = res.signal === 'SIGTERM' ? 143 : 130;
    return;
  }
  if (json) outJson(res.summary);
  else out(formatSummary(res.summary, title));
}

export function addBatchSolverOptions(cmd: Command): Command {
  return cmd
    .option('--preset <name>', `solver preset: ${Object.keys(PRESETS).map((p) => `${p}${p === DEFAULT_PRESET ? ' (default)' : ''}`).join(', ')} (see 'limited solve --help')`)
    .addOption(new Option('--search <kind>', `one search instead of the preset: ${SEARCH_KINDS}`).choices(SEARCHES as string[]))
    .option('--heuristic <name>', `the position score of best-first and beam search: ${Object.keys(HEURISTICS).join(', ')}`)
    .option('--max-nodes <n>', "node budget per deal: 'unknown' after N nodes (default: the preset's)")
    .option('--max-seconds <s>', 'time budget per deal, seconds (the verdicts then depend on the machine and its load)')
    .option('--max-memory <mb>', "memory cap of each search's table of states, megabytes, as for 'limited solve --max-memory' (default: the preset's)");
}

export function registerBatch(program: Command): void {
  const cmd = program
    .command('batch')
    .description('solve a range of deals on every core: one CSV row a deal, a win rate with a 95 % interval; resumable, shardable');
  cmd
    .option('--from <n>', 'first deal number (0 to 2^53-1)')
    .option('--count <n>', 'number of deals: --from A --count N runs deals A to A+N-1')
    .option('--pysol-range <a-b>', `PySolFC game numbers A to B instead, 1 <= A <= B <= ${MAX_DEAL_NUMBER} (plain game numbers: no ms ones; rules default to 'pysol')`)
    .option('--rules <rules>', "a preset (book, pysol) and/or option=value words (default: book; pysol with --pysol-range)")
    .option('--size <size>', "deck and layout DxR,CxW, e.g. '1x5,4x3' (default 2x13,12x3)");
  addBatchSolverOptions(cmd)
    .option(
      '--player <spec>',
      "a blind player instead of the solver (it cannot see the stock): greedy, or sampling[:samples=S,nodes=N,...] (see README); each deal is played with its number as the seed",
    );
  addTacticsOptions(cmd, 'both')
    .option('--pile <memory>', "with --player: remembered (default: the player knows the pile's order in the second deal) or forgotten (it turns the fifth card blind)")
    .option('--workers <n>', `worker threads (default: the number of cores, ${availableParallelism()} here)`)
    .option('--out <file>', 'results CSV (its directories are made); FILE.meta.json and FILE.summary.json go beside it (default results/batch-A-B.csv, results/pysol-A-B.csv or results/PLAYER-A-B.csv, with every choice but the budgets that is not the default: results/batch-fast-A-B.csv, results/greedy-pairing-cautious-spaces-hold-A-B.csv)')
    .option('--shard <i/n>', 'run shard I of N: the I-th of N contiguous blocks of the range (file name gets .shard-I-of-N)')
    .option('--shards <n>', 'N shards, the shard taken from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)')
    .option('--chunk <k>', 'deals handed to a worker at a time (default: about 20 chunks per worker, at most 32; greedy player: up to 5000)')
    .option('--force', 'start over when --out was made with other options (otherwise refused; a run with the same options resumes either way)')
    .option('--certificates', "keep what proves each decided deal in FILE.certs.gz: a won deal's moves, how a lost one was proved ('limited verify-results' checks them)")
    .option('--json', 'print the summary as one JSON object (the fields of FILE.summary.json) instead of the text')
    .option('--no-progress', 'no progress on stderr')
    .addHelpText(
      'after',
      examples(
        'limited batch --from 1 --count 2000 --preset fast --max-nodes 50000 --out results/fast.csv',
        'limited batch --from 1 --count 1000 --size 1x5,4x3 --workers 2',
        'limited batch --pysol-range 1-1000 --out results/pysol.csv     # PySolFC games, pysol rules',
        'limited batch --from 1 --count 1000000 --player greedy --pairing cautious --spaces hold',
        "limited batch --from 1 --count 200 --player sampling:samples=16,nodes=500 --out results/s.csv",
        'limited batch --from 1 --count 1000 --pairing never --max-nodes 100000   # the solver restricted',
        'limited batch --from 1 --count 1000000 --shard 3/10 --out results/m.csv   # writes results/m.shard-03-of-10.csv',
        'limited batch --from 1 --count 100 --size 1x5,4x3 --out small.csv --json   # the summary as one JSON object',
      ) +
        `
One row a deal in the CSV: deal, source, rules, size, job, method, max_nodes, max_seconds,
max_memory_mb, verdict (won, unsolvable, unknown), limit (what ran out, for unknown), nodes,
states, solution_length, best_home, cards, ms. The summary (stdout, and FILE.summary.json):
won, unsolvable, unknown, the win rate (won of all deals), a 95 % Wilson interval over all
deals that counts unknown as lost for its low end and as won for its high end, and the rate
among the decided deals (won / (won + unsolvable), unknown left out).

With --player, one row a game instead: deal, source, rules, size, job (play), method
(player=... pairing=... spaces=... pile=...), verdict (won or lost: the player's game, never
a proof), end (won, stopped, blind, cap), home (cards home at the end), cards, moves,
redealt (0/1), turned_fifth_blind, nodes (the player's look-ahead), ms.

Resume: run the same command again (same --out): deals already in the file are skipped; a
kill at any moment loses at most the deals in flight. A file made with other options is
refused, unless --force: then it is removed with its sidecars and the run starts over.
Determinism: with node budgets only, every column but ms is the same for any --workers,
--chunk or sharding. With --max-seconds the verdicts depend on the machine and its load.
Shards: under a Slurm job array (SLURM_ARRAY_TASK_ID/COUNT/MIN) the shard is taken from
the environment; in a Kubernetes Indexed Job give --shards N (JOB_COMPLETION_INDEX picks it).
Exit status: 0 done, 2 bad input, 3 a solution that fails to verify (a solver bug),
130/143 interrupted (SIGINT/SIGTERM: run again to resume).
`,
    )
    .action(
      run(async (o: BatchCliOptions) => {
        await runBatchCommand(batchConfig(o, process.argv.slice(2)), 'limited batch', o.json === true);
      }),
    );
}
