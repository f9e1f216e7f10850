/**
 * A benchmark run: every heuristic on every deal of a list, with the same search and budgets,
 * through the batch's worker pool (piscina, src/batch/worker.ts running the `bench` job kind:
 * a chunk of deals, each searched by every heuristic in turn). Writes, into the output
 * directory:
 *
 *   bench.csv   one row per deal and heuristic (the batch's CSV writer)
 *   bench.svg   deals decided against node budget, one line per heuristic
 *   bench.txt   the report printed on stdout
 *   bench.json  what ran (command, commit, machine, set, options), the figures and the signature
 *
 * Determinism: with a node budget and no time budget, every column of bench.csv but `ms` is the
 * same on any machine and with any worker count, and so is the signature: the total of the
 * nodes over all deals and heuristics. A change in it means the search changed.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Rules, UserError, formatRules, formatSize } from '../game/index.js';
import { csvText } from '../batch/csv.js';
import { checkWritable, makeDir, readRegular, writeAtomic } from '../util/fileio.js';
import { dealMaker } from '../batch/job.js';
import { type CompactRow, limitOf, verdictOf } from '../batch/rows.js';
import { gitCommit, machine, toolVersion } from '../batch/machine.js';
import { startPool } from '../batch/pool.js';
import { Progress } from '../batch/progress.js';
import { defaultChunk } from '../batch/range.js';
import { BatchSolverError, workerFile } from '../batch/run.js';
import { type ChunkResult, type ChunkTask } from '../batch/worker.js';
import { chartSvg } from './chart.js';
import { type HeuristicRef, checkOnDeal, resolveHeuristic } from './heuristics.js';
import { benchKindModule, benchSpec } from './job.js';
import { formatReport } from './report.js';
import { type DealList } from './sets.js';
import { type BenchConfig, type BenchResult, type BenchRow } from './result.js';
import { pairedComparison, summarizeCells } from './stats.js';

export const CSV_COLUMNS = [
  'deal', 'source', 'rules', 'size', 'search', 'heuristic', 'max_nodes', 'max_seconds', 'verdict', 'limit', 'nodes', 'states',
  'solution_length', 'best_home', 'ms',
] as const;

/** bench.json's `format`: it marks the files beside it as a benchmark's. */
export const BENCH_FORMAT = 'limited-bench/1';

/** Is `file` a bench.json that limited bench wrote (any version of its format)? */
function isBenchJson(file: string): boolean {
  try {
    const j = JSON.parse(readRegular(file, 'benchmark file') ?? '') as { format?: unknown } | null;
    return typeof j?.format === 'string' && j.format.startsWith('limited-bench/');
  } catch {
    return false;
  }
}

/**
 * An earlier benchmark's files in the directory are replaced only with `force` (a benchmark
 * does not resume: a run is a new measurement, and replacing one is a choice), and a file in
 * the way that is not a benchmark's is refused even so, as batch and merge refuse theirs: a
 * bench.json without "format": "limited-bench/...", or any of the four without a bench.json
 * beside it.
 */
function refuseForeign(dir: string, files: BenchResult['files'], force: boolean): void {
  if (existsSync(files.json)) {
    if (!isBenchJson(files.json))
      throw new UserError(`'${files.json}' exists but is not the report of limited bench (no "format": "${BENCH_FORMAT}"): remove it or choose another --out-dir`);
    if (!force) throw new UserError(`'${dir}' holds an earlier benchmark (${files.json}): give --force to replace it, or choose another --out-dir`);
    return;
  }
  for (const f of [files.csv, files.svg, files.txt])
    if (existsSync(f))
      throw new UserError(`'${f}' exists but has no '${files.json}' beside it, so it is not a file of limited bench: remove it or choose another --out-dir`);
}

/**
 * Makes the output directory and checks that its files can be written and are not another's.
 * Throws UserError.
 */
export function prepareOutDir(dir: string, force = false): BenchResult['files'] {
  const files = { csv: join(dir, 'bench.csv'), svg: join(dir, 'bench.svg'), txt: join(dir, 'bench.txt'), json: join(dir, 'bench.json') };
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UserError(`--out-dir '${dir}' is a file, not a directory`);
  makeDir(dir, `benchmark file '${files.json}'`);
  for (const f of Object.values(files)) checkWritable(f, 'benchmark file');
  refuseForeign(dir, files, force);
  return files;
}

/**
 * Loads every module heuristic in this thread and calls it on positions of the list's first
 * deal: a missing module or export, a throw, a bad score or a changed position is a UserError
 * naming the path, before any worker starts.
 */
export async function checkHeuristics(refs: readonly HeuristicRef[], list: DealList, rules: Rules): Promise<void> {
  const first = list.deals[0]!;
  const deal = dealMaker(list.source, list.size)(first);
  const name = list.source === 'pysol' ? `PySolFC game ${first}` : `deal ${first}`;
  for (const r of refs) {
    if (r.builtin !== undefined) continue;
    const h = await resolveHeuristic(r);
    checkOnDeal(h, r.label, deal, rules, name);
  }
}

export async function runBench(cfg: BenchConfig): Promise<BenchResult> {
  const { list, rules, heuristics } = cfg;
  if (list.deals.length === 0) throw new UserError('no deals to benchmark');
  if (heuristics.length === 0) throw new UserError('no heuristics to benchmark');
  await checkHeuristics(heuristics, list, rules);
  const files = prepareOutDir(cfg.outDir, cfg.force === true);
  const spec = benchSpec(list.source, rules, list.size, heuristics, cfg.solver);
  const H = heuristics.length;
  const labels = heuristics.map((h) => h.label);
  const n = list.deals.length;
  const workers = Math.max(1, Math.min(cfg.workers, n));
  const chunk = cfg.chunk ?? Math.max(1, Math.min(defaultChunk(n, workers), Math.ceil(32 / H)));
  const index = new Map<number, number>();
  list.deals.forEach((d, i) => index.set(d, i));
  const cells: (BenchRow | undefined)[][] = labels.map(() => new Array<BenchRow | undefined>(n));

  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const progress = new Progress(process.stderr, cfg.progress);
  let done = 0;
  let won = 0;
  let unknown = 0;
  const state = () => ({ done, total: n, doneHere: done, won, unknown });
  let failure: ChunkResult['error'] | undefined;
  // A worker that dies between tasks fails the benchmark (checked as the tasks are awaited).
  let poolError: Error | undefined;
  const pool = startPool<ChunkTask, ChunkResult>({ filename: workerFile(), workers, onError: (e) => (poolError ??= e) });
  const addRow = (r: CompactRow): void => {
    const i = index.get(r[0]);
    const h = r[8] ?? 0;
    if (i === undefined || h >= H) throw new Error(`internal: a row for deal ${r[0]}, heuristic ${h}, not asked for`);
    const verdict = verdictOf(r) as BenchRow['verdict'];
    cells[h]![i] = {
      deal: r[0], heuristic: labels[h]!, verdict, limit: limitOf(r), nodes: r[3], states: r[4], solutionLength: r[5], bestHome: r[6], ms: r[7],
    };
    if (h === H - 1) {
      // A worker sends a deal's rows together: the last heuristic's row completes the deal.
      done++;
      if (cells[0]![i]!.verdict === 'won') won++;
      if (cells[0]![i]!.verdict === 'unknown') unknown++;
    }
  };
  const take = (res: ChunkResult): void => {
    for (const r of res.rows) addRow(r);
    if (res.error && !failure) {
      failure = res.error;
      void pool.stop();
    }
    progress.update(state());
  };
  if (process.stderr.isTTY) progress.update(state(), true);
  const tasks: Promise<void>[] = [];
  try {
    const kindModule = benchKindModule();
  for (let k = 0; k < n; k += chunk) {
      const task: ChunkTask = { spec, deals: list.deals.slice(k, k + chunk), kindModule };
      tasks.push(
        pool.run(task).then(take, (e: unknown) => {
          if (!failure) throw e;
        }),
      );
    }
    await Promise.all(tasks);
    if (poolError) throw poolError;
  } catch (e) {
    // A worker that could not start the job: a module that failed to load there is bad input.
    const msg = e instanceof Error ? e.message : String(e);
    if (e instanceof Error && /^heuristic /.test(msg)) throw new UserError(msg);
    throw e;
  } finally {
    progress.finish(failure ? undefined : state());
    await pool.stop();
  }
  if (failure) {
    if (failure.name === 'HeuristicError') throw new UserError(`${list.source === 'pysol' ? 'PySolFC game' : 'deal'} ${failure.deal}: ${failure.message}`);
    if (failure.name === 'SolutionError') throw new BatchSolverError(`deal ${failure.deal}: ${failure.message}`);
    throw new Error(`deal ${failure.deal}: ${failure.name}: ${failure.message}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  const full = cells.map((col, h) =>
    col.map((c, i) => {
      if (!c) throw new Error(`internal: no row for deal ${list.deals[i]}, heuristic ${labels[h]}`);
      return c;
    }),
  );
  const summaries = full.map((col) => summarizeCells(col));
  const paired = full.map((col, h) => (h === 0 ? null : pairedComparison(full[0]!, col)));
  let signature = 0;
  for (const s of summaries) signature += s.totalNodes;
  const result: BenchResult = {
    config: cfg,
    spec,
    labels,
    cells: full,
    summaries,
    paired,
    signature,
    deterministic: spec.budgets.maxSeconds === null,
    seconds,
    workers,
    startedAt,
    files,
  };
  writeOutputs(result);
  return result;
}

/** What bench.json holds (and `limited bench --json` prints). */
function benchJson(r: BenchResult): Record<string, unknown> {
  const { list } = r.config;
  return {
    format: BENCH_FORMAT,
    tool: 'limited',
    version: toolVersion(),
    commit: gitCommit(),
    command: r.config.command,
    startedAt: r.startedAt,
    seconds: Math.round(r.seconds * 1000) / 1000,
    workers: r.workers,
    machine: machine(),
    set: {
      name: list.name,
      description: list.description,
      source: list.source,
      size: formatSize(list.size),
      count: list.deals.length,
      ...(list.file !== undefined ? { file: list.file } : {}),
      ...(list.chosen !== undefined ? { chosen: list.chosen } : {}),
    },
    rules: r.spec.rules,
    search: r.config.solver.search,
    budgets: r.spec.budgets,
    heuristics: r.labels,
    signature: { nodes: r.signature, deterministic: r.deterministic },
    figures: r.labels.map((label, h) => ({ heuristic: label, ...r.summaries[h]!, pairedWithFirst: r.paired[h] ?? null })),
  };
}

function writeOutputs(r: BenchResult): void {
  const { list } = r.config;
  const b = r.spec.budgets;
  // bench.json first: it marks the others as a benchmark's (refuseForeign), so a run that
  // fails half-way through writing leaves nothing that the next run refuses.
  writeAtomic(r.files.json, JSON.stringify(benchJson(r), null, 2) + '\n', 'benchmark file');
  const records: (string | number)[][] = [[...CSV_COLUMNS]];
  for (let i = 0; i < list.deals.length; i++) {
    for (let h = 0; h < r.labels.length; h++) {
      const c = r.cells[h]![i]!;
      records.push([
        c.deal, r.spec.source, r.spec.rules, r.spec.size, r.config.solver.search, c.heuristic, b.maxNodes, b.maxSeconds ?? '', c.verdict, c.limit,
        c.nodes, c.states, c.solutionLength, c.bestHome, c.ms,
      ]);
    }
  }
  writeAtomic(r.files.csv, csvText(records), 'benchmark file');
  const svg = chartSvg({
    title: `Deals decided against node budget: ${list.name}`,
    subtitle: `${list.deals.length} deals (${list.description}), rules ${formatRules(r.config.rules)}, search=${r.config.solver.search}` +
      (b.maxSeconds !== null ? `, max ${b.maxSeconds} s a search` : ''),
    deals: list.deals.length,
    maxNodes: b.maxNodes,
    series: r.labels.map((label, h) => ({ label, cells: r.cells[h]! })),
  });
  writeAtomic(r.files.svg, svg, 'benchmark file');
  const report = formatReport(r);
  writeAtomic(r.files.txt, report, 'benchmark file');
}
