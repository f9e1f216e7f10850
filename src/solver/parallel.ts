/**
 * One deal on several cores: `solveParallel` runs the prover (depth-first search on exact keys,
 * LockBound at every position, as the `prove` preset) on T worker threads at once, all from the
 * root, on one transposition table in a SharedArrayBuffer (shared-table.ts).
 *
 * Roles. Every thread runs the same complete search with its own tie-break seed (`seed` in the
 * move options reorders moves of equal score; thread 0 keeps the single-threaded order, so one
 * thread is the `prove` preset's search, node for node). A thread skips every position already
 * in the table, whoever stored it, so the threads soon search different parts of the space:
 * where two meet, the first to store a position searches below it and the other goes on. A
 * thread whose search is exhausted helps the others (parallel-worker.ts, SharedTable `helping`)
 * while any is still in its first search. With `rollout`, the last thread starts as the default
 * preset's rollout, to find wins early, and turns helper when the deal looks lost.
 *
 * Soundness. A win by any thread is a win: its line is replayed by the verifier from the deal in
 * the calling thread before it is returned (`verifiedWin`, as Solver.start does). The deal is
 * unsolvable only when EVERY prover thread (and the rollout thread, once it has turned helper)
 * has ended with its last search exhausted and no budget run out (`verdictOf`). Then
 * every position in the table was stored by exactly one thread (the compare-exchange that
 * publishes a key lets one insert answer "new"), and that thread expanded it to the end: it
 * pushed the position, generated its moves, and left it only when each child was won (none was,
 * or it would have said so), cut by a sound bound, stored by it and expanded in turn, or already
 * in the table. So the table is closed under the search's moves, up to sound cuts, holds the
 * root, and holds no won position: no won position is reachable, and the reductions' soundness
 * (each argued where it is made) carries that to the game. One thread's exhaustion alone proves
 * nothing: it skipped positions that another thread had stored and may still be expanding (a
 * helper's search included; what a helper stores, its own search expands before it reports). The
 * done bits that steer the helpers play no part in this. The
 * draw discipline's shortcut (positions right after a draw are not stored) stays sound: such a
 * position is reached by one draw from one parent, which one thread stored and so expands, once.
 * The verdict is unknown when any prover thread ran out of a budget and none won.
 *
 * Budgets. --max-seconds is one deadline for all. --max-nodes is the total over the threads: a
 * shared counter (Atomics) that each thread adds its nodes to after each slice of SLICE nodes,
 * and reads before the next to bound its run by what is left; so the total may pass the budget
 * by less than a slice for each thread beside the first. --max-memory is the shared table's
 * size, allocated at once (shared-table.ts), and no larger than the node budget can fill; each
 * thread's own buffers (its move stack and path, the bounds' arrays) take well under 1 MB, and
 * the rollout's table (with `rollout`) ROLLOUT_MB at most. A stop flag (an Int32 in shared
 * memory, checked after each slice: a few milliseconds) stops every thread: on a win, or on
 * `signal` (the result is then unknown, 'interrupted'); another stops the rollout once every
 * prover has ended.
 *
 * Results: nodes summed over the threads, states = the keys stored in the shared table, bytes
 * per state of the shared table (`SharedTable.bytesPerState`), seconds of wall time (the
 * threads' start included), the most cards home of any thread.
 *
 * Node.js only (worker_threads): the CLI imports this module directly; src/solver/index.ts,
 * which a browser bundle imports, does not export it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Deal } from '../game/deal.js';
import { type Rules } from '../game/rules.js';
import { type PackedMove, Game } from '../game/state.js';
import { KeyPacker } from './key.js';
import { LockBound } from './lockbound.js';
import { DEFAULT_OPTIONS, MAX_THREADS, type SolveOptions } from './options.js';
import { DEFAULT_PRESET, PRESETS } from './presets.js';
import { type Progress, type SolveResult } from './result.js';
import { type SharedLayout, layoutBytesPerState, newSharedBuffer, sharedBytes, sharedLayout } from './shared-table.js';
import { verifiedWin } from './verified.js';

/** Nodes a thread runs between two looks at the stop flag and the shared node count (a few milliseconds). */
export const SLICE = 8192;
/** The memory cap of the rollout thread's own table (`rollout`), in MB. */
export const ROLLOUT_MB = 64;
/** The most threads `solveParallel` runs (options.ts, where a request is checked against it). */
export { MAX_THREADS };

/**
 * The prover's settings: what every thread runs, whatever else the options say (the `prove`
 * preset's search in the real game: the threads' shared table holds real positions, so neither
 * the relaxed game of the fifth card nor waste dominance, which keeps its refuted sets per thread,
 * nor pile nogoods, whose record of what a refutation read stops at a position another thread
 * holds).
 */
export const PROVER: Partial<SolveOptions> = {
  search: 'dfs', order: 'layout', lockBoundEvery: true, signaturesAfter: Infinity, homeFirst: false, freeFifth: false, wasteDominance: false, pileNogoods: false,
};

export interface ParallelOptions {
  /** Threads, 1..MAX_THREADS: all provers, or (with `rollout`) all but the last. */
  readonly threads: number;
  /** Moves from the deal: the solve starts from the position they reach (as Solver.solve's `from`). */
  readonly from?: readonly PackedMove[];
  /**
   * The last of the threads (2 or more) starts as the default preset's rollout, to find wins
   * early, and turns helper when the deal looks lost (the default preset's `looksLost`).
   */
  readonly rollout?: boolean;
  /** Stops every thread: the result is unknown, limit 'interrupted'. */
  readonly signal?: AbortSignal;
  /** Called about five times a second with the figures so far. */
  readonly onProgress?: (p: Progress) => void;
}

/** The shared table could not be allocated (the memory cap is more than the machine gives). */
export class TableAllocationError extends Error {
  override readonly name = 'TableAllocationError';
}

export type ParallelResult = SolveResult & {
  readonly threads: number;
  /** Each thread's nodes (the provers', then the rollout's): how the work was shared. */
  readonly threadNodes: readonly number[];
};

/** How a thread ended (its message to the calling thread). */
export type ThreadEnd = 'won' | 'lost' | 'nodes' | 'time' | 'memory' | 'stopped';

export interface ThreadReport {
  readonly role: 'prove' | 'rollout';
  /** A prover, or the rollout thread once it has turned helper: its end counts for the verdict. */
  readonly proves: boolean;
  readonly end: ThreadEnd;
  readonly nodes: number;
  readonly bestHome: number;
  /** The winning line from the root (won only). */
  readonly moves: PackedMove[] | null;
  /** Keys it stored in the shared table. */
  readonly inserted: number;
}

/** What each worker is given (structured-cloned; the buffers are shared). */
export interface WorkerInput {
  readonly role: 'prove' | 'rollout';
  /** Its slot in the control buffer's progress. */
  readonly slot: number;
  readonly deal: Deal;
  readonly rules: Rules;
  readonly from: readonly PackedMove[];
  readonly options: SolveOptions;
  readonly layout: SharedLayout;
  readonly table: SharedArrayBuffer;
  readonly control: SharedArrayBuffer;
  /** The deadline as a time since the epoch in ms (each thread's `performance.now()` has its own origin). */
  readonly deadline: number;
  /** The rollout's rule for turning helper (the default preset's `looksLost`), or null: never. */
  readonly looksLost: { readonly afterNodes: number; readonly bestHomeAtMost: number } | null;
}

/**
 * The control buffer: Int32 flags [STOP, STOP_ROLLOUT, ACTIVE] at 0, the shared node count
 * (BigInt64) at 16, and each thread's progress (Float64: nodes, best home) from 24.
 */
export const STOP = 0;
export const STOP_ROLLOUT = 1;
/** The count of provers still in their first search (helpers search again while it is not 0). */
export const ACTIVE = 2;
/** How long a helper that found no unfinished work waits before it searches again. */
export const HELPER_PAUSE_MS = 2;
export function controlViews(buf: SharedArrayBuffer): { flags: Int32Array; nodes: BigInt64Array; progress: Float64Array } {
  return { flags: new Int32Array(buf, 0, 4), nodes: new BigInt64Array(buf, 16, 1), progress: new Float64Array(buf, 24) };
}

/**
 * Solves a deal on `threads` threads (the last a rollout with `rollout`) sharing one
 * table: `opts` over DEFAULT_OPTIONS, with the prover's settings (PROVER) whatever they say.
 * Resolves to the result with `threads`; rejects with SolutionError for a win that does not
 * verify (a solver bug), or with a thread's error.
 */
export async function solveParallel(deal: Deal, rules: Rules, opts: Partial<SolveOptions>, p: ParallelOptions): Promise<ParallelResult> {
  const threads = p.threads;
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) throw new Error(`threads must be a whole number from 1 to ${MAX_THREADS}, not ${threads}`);
  if (opts.search !== undefined && opts.search !== 'dfs') throw new Error(`threads run depth-first search, not '${opts.search}'`);
  if (p.rollout && threads < 2) throw new Error('a rollout thread needs 2 threads or more: one prover beside it');
  const provers = threads - (p.rollout ? 1 : 0);
  const from = p.from ?? [];
  const o: SolveOptions = { ...DEFAULT_OPTIONS, ...opts, ...PROVER, heuristic: DEFAULT_OPTIONS.heuristic };
  const t0 = performance.now();
  const g = Game.after(deal, rules, from);
  const packer = new KeyPacker(g);
  const seconds = (): number => (performance.now() - t0) / 1000;
  const alone = (r: Omit<SolveResult, 'seconds'>): ParallelResult => ({ ...r, seconds: seconds(), threads, threadNodes: [] });
  if (g.isWon()) return alone({ verdict: 'won', nodes: 0, states: 0, bytesPerState: 0, bestHome: g.home, moves: [] });
  if (o.lockBound && new LockBound(g).lost(o.tactics))
    return alone({ verdict: 'unsolvable', proof: 'locks', nodes: 0, states: 0, bytesPerState: 0, bestHome: g.home, moves: null });

  // Each node stores at most one state, and each thread's root one more: a table larger than the
  // node budget (with what the threads may pass it by) would never fill.
  const most = Number.isFinite(o.maxNodes) ? o.maxNodes + threads * (SLICE + 2048) : Infinity;
  const layout = sharedLayout(packer.words, o.maxMemoryMB * 1024 * 1024, most);
  let table: SharedArrayBuffer;
  try {
    table = newSharedBuffer(layout);
  } catch (e) {
    throw new TableAllocationError(`cannot allocate the shared table of ${Math.round(sharedBytes(layout) / 2 ** 20)} MB: ${(e as Error).message}`);
  }
  const workers = threads;
  // The table's counter of ids taken (shared-table.ts): the progress's states.
  const taken = new Int32Array(table, 0, 1);
  const control = new SharedArrayBuffer(24 + 16 * workers);
  const { flags, progress } = controlViews(control);
  Atomics.store(flags, ACTIVE, provers);
  const lost = PRESETS[DEFAULT_PRESET]?.looksLost;
  const deadline = performance.timeOrigin + t0 + o.maxSeconds * 1000;
  const file = workerFile();
  const reports: (ThreadReport | null)[] = new Array(workers).fill(null);
  let error: unknown = null;

  const figures = (): Progress => {
    let nodes = 0;
    let bestHome = g.home;
    for (let i = 0; i < workers; i++) {
      const r = reports[i];
      nodes += r ? r.nodes : progress[2 * i]!;
      bestHome = Math.max(bestHome, r ? r.bestHome : progress[2 * i + 1]!);
    }
    const states = Math.min(Atomics.load(taken, 0), layout.capacity);
    return { nodes, states, bestHome, bytesPerState: states > 0 ? layoutBytesPerState(layout) : 0 };
  };
  const stop = (): void => {
    Atomics.store(flags, STOP, 1);
  };
  const onAbort = (): void => stop();
  p.signal?.addEventListener('abort', onAbort);
  if (p.signal?.aborted) stop();
  const ticker = p.onProgress ? setInterval(() => p.onProgress!(figures()), 200) : null;

  try {
    await Promise.all(
      reports.map(
        (_, slot) =>
          new Promise<void>((resolve) => {
            const role = slot < provers ? 'prove' : 'rollout';
            const input: WorkerInput = {
              role, slot, deal, rules, from,
              options: o,
              layout, table, control, deadline,
              looksLost: lost ? { afterNodes: lost.afterNodes, bestHomeAtMost: lost.bestHomeAtMost } : null,
            };
            const w = new Worker(new URL(file), { workerData: input });
            w.on('message', (r: ThreadReport) => {
              reports[slot] = r;
              if (r.end === 'won') stop();
              // Once every prover has ended, the rollout can find nothing they have not decided.
              else if (role === 'prove' && reports.every((x, i) => i >= provers || x !== null)) Atomics.store(flags, STOP_ROLLOUT, 1);
            });
            w.on('error', (e) => {
              error ??= e;
              stop();
            });
            w.on('exit', (code) => {
              if (reports[slot] === null) {
                error ??= new Error(`solver thread ${slot} exited with code ${code} and no result`);
                stop();
              }
              resolve();
            });
          }),
      ),
    );
  } finally {
    if (ticker) clearInterval(ticker);
    p.signal?.removeEventListener('abort', onAbort);
  }
  if (error) throw error;
  const done = reports as ThreadReport[];
  const f = figures();
  let states = 0;
  for (const r of done) states += r.inserted;
  const base = { nodes: f.nodes, states, bytesPerState: states > 0 ? layoutBytesPerState(layout) : 0, bestHome: f.bestHome, seconds: 0, threads, threadNodes: done.map((r) => r.nodes) };
  const v = verdictOf(done, p.signal?.aborted === true);
  if (v.verdict === 'won') return { ...base, verdict: 'won', moves: verifiedWin(deal, rules, v.moves, from), seconds: seconds() };
  return { ...base, ...v, moves: null, seconds: seconds() };
}

/**
 * The verdict of the threads' reports: won when any thread won (its line, to be verified);
 * unsolvable only when every prover (and the rollout thread, once it turned helper: `proves`)
 * ended exhausted; else unknown, by the budget a prover ran out of, or 'interrupted' when stopped
 * from outside.
 */
export function verdictOf(
  reports: readonly Pick<ThreadReport, 'end' | 'moves' | 'proves'>[], aborted: boolean,
): { verdict: 'won'; moves: PackedMove[] } | { verdict: 'unsolvable'; proof: 'search' } | { verdict: 'unknown'; limit: SolveResult['limit'] } {
  const won = reports.find((r) => r.end === 'won');
  if (won) return { verdict: 'won', moves: won.moves! };
  const provers = reports.filter((r) => r.proves);
  if (provers.every((r) => r.end === 'lost')) return { verdict: 'unsolvable', proof: 'search' };
  const end = provers.map((r) => r.end).find((e) => e !== 'lost' && e !== 'stopped') ?? 'stopped';
  return { verdict: 'unknown', limit: end === 'stopped' || aborted ? 'interrupted' : (end as 'nodes' | 'time' | 'memory') };
}

/** A tie-break seed, nonzero, for the searches of the threads (see parallel-worker.ts). */
export function seedOf(slot: number): number {
  return (Math.imul(slot, 0x9e3779b1) | 1) >>> 0;
}

/** The rollout stage of the default preset (the options it runs with), for the rollout thread. */
export function rolloutOptions(rules: Rules): Partial<SolveOptions> {
  const stage = PRESETS[DEFAULT_PRESET]?.stages.find((s) => s.options.search === 'rollout');
  return stage ? { ...PRESETS[DEFAULT_PRESET]!.options, ...stage.options, ...stage.under?.[rules.secondDeal] } : { search: 'rollout' };
}

/**
 * dist/src/solver/parallel-worker.js: next to this module once compiled; from the TypeScript
 * sources (the tests), the built one. The path goes through ../solver/ so that it holds from the
 * bundled CLI as well (dist/src/cli/main.js, the same depth under dist/src).
 */
function workerFile(): string {
  const here = new URL('../solver/parallel-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here.href;
  const built = new URL('../../dist/src/solver/parallel-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return built.href;
  throw new Error(`the solver's thread ${fileURLToPath(here)} is missing: build the project first (npm run build)`);
}
