/**
 * One thread of `solveParallel` (parallel.ts; compiled to dist/src/solver/parallel-worker.js):
 * the prover on the shared table, or the rollout. It runs in slices of SLICE nodes, and between
 * two it publishes its progress, adds its nodes to the shared count, and looks at the stop flag.
 * Its last act is one message, its ThreadReport.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Game } from '../game/state.js';
import { isRestricted } from '../game/tactics.js';
import { PileBound } from './bound.js';
import { DFS_LOST, DFS_MEMORY, DFS_NODES, DFS_SLICE, DFS_TIME, DFS_WON, DepthFirst } from './dfs.js';
import { KeyPacker } from './key.js';
import { LockBound } from './lockbound.js';
import { moveOptions } from './moves.js';
import {
  type ThreadEnd, type ThreadReport, type WorkerInput, ACTIVE, HELPER_PAUSE_MS, MAX_THREADS, ROLLOUT_MB, SLICE, STOP, STOP_ROLLOUT, controlViews, rolloutOptions, seedOf,
} from './parallel.js';
import { SharedTable } from './shared-table.js';
import { WasteBound } from './wastebound.js';

const input = workerData as WorkerInput;
const { flags, nodes: shared, progress } = controlViews(input.control);
const deadline = input.deadline - performance.timeOrigin;
parentPort!.postMessage(input.role === 'prove' ? prove(input) : await rollout(input));

/**
 * The prover's depth-first search from the root on the shared table, as searches/depth-first.ts
 * runs it on exact keys; once exhausted, searches again as a helper (parallel.ts) while any
 * prover is still in its first search. `from`: the rollout thread turned helper, its figures so
 * far (it starts as a helper, and is no prover whose first search the count ACTIVE waits for).
 */
function prove(w: WorkerInput, from: { nodes: number; bestHome: number } | null = null): ThreadReport {
  const o = w.options;
  const g = Game.after(w.deal, w.rules, w.from);
  const packer = new KeyPacker(g);
  const table = new SharedTable(w.layout, w.table);
  const dfs = new DepthFirst();
  const bound = o.pileBound ? new PileBound(g) : null;
  const waste = o.wasteBound ? new WasteBound(g) : null;
  const tactics = isRestricted(o.tactics) ? o.tactics : null;
  dfs.lock = o.lockBoundEvery ? new LockBound(g) : null;
  const budget = o.maxNodes;
  // Nodes and best home of the searches before this one, and the nodes added to the shared count.
  let before = from?.nodes ?? 0;
  let bestHome = Math.max(g.home, from?.bestHome ?? 0);
  let counted = before;
  let end: ThreadEnd;
  table.helping = from !== null;
  for (let search = from ? 1 : 0; ; search++) {
    // Thread 0's first search keeps the prover's order (seed 0, or the one given); every other search breaks ties its own way.
    dfs.begin(g, packer, table, false, moveOptions({ ...o, seed: w.slot === 0 && search === 0 ? o.seed : seedOf(w.slot + search * MAX_THREADS) }), tactics, bound, waste);
    const stored = table.inserted;
    end = runSearch(dfs, budget, () => (counted = count(w.slot, before + dfs.nodes, counted, Math.max(bestHome, dfs.bestHome))));
    before += dfs.nodes;
    bestHome = Math.max(bestHome, dfs.bestHome);
    if (search === 0) Atomics.sub(flags, ACTIVE, 1);
    if (end !== 'lost') break;
    table.finishAll();
    // Exhausted: it helps while any prover is still in its first search.
    if (Atomics.load(flags, ACTIVE) === 0) break;
    table.helping = true;
    // A helper search that stored nothing found no unfinished work: wait a moment before the next.
    if (table.inserted === stored && search > 0) Atomics.wait(flags, STOP, 0, HELPER_PAUSE_MS);
  }
  return { role: w.role, proves: true, end, nodes: before, bestHome, moves: end === 'won' ? g.history() : null, inserted: table.inserted };
}

/**
 * Runs one depth-first search in slices to its end: between two slices, the progress is
 * published (`tally`) and the stop flag looked at; each slice is bounded by what is left of the
 * shared node budget, as this thread last saw it.
 */
function runSearch(dfs: DepthFirst, budget: number, tally: () => void): ThreadEnd {
  for (;;) {
    if (Atomics.load(flags, STOP) !== 0) return 'stopped';
    // The others' nodes since their last count are not seen: the total may pass the budget by less than their slices.
    const left = Number.isFinite(budget) ? Math.max(0, budget - Number(Atomics.load(shared, 0))) : Infinity;
    const code = dfs.run(dfs.nodes + left, deadline, dfs.nodes + SLICE);
    tally();
    if (code === DFS_SLICE) continue;
    return code === DFS_WON ? 'won' : code === DFS_LOST ? 'lost' : code === DFS_NODES ? 'nodes' : code === DFS_TIME ? 'time' : code === DFS_MEMORY ? 'memory' : fail(code);
  }
}

/**
 * The default preset's rollout from the root, on a Solver of its own, until it wins, runs out, or
 * is stopped (STOP_ROLLOUT: every prover has ended). When the deal looks lost (`looksLost`: the
 * rollout has spent `afterNodes` and no thread has got more than `bestHomeAtMost` cards home)
 * while a prover is still in its first search, it turns helper (`prove`) for good.
 */
async function rollout(w: WorkerInput): Promise<ThreadReport> {
  // Imported here: the provers do without the other searches' code, and start sooner.
  const { Solver } = await import('./solver.js');
  const solver = new Solver();
  const o = { ...rolloutOptions(w.rules), maxNodes: Infinity, maxSeconds: Math.max(0, (deadline - performance.now()) / 1000), maxMemoryMB: ROLLOUT_MB, tactics: w.options.tactics };
  const run = solver.start(w.deal, w.rules, o, w.from);
  const lost = w.looksLost;
  let counted = 0;
  for (let n = SLICE; ; n += SLICE) {
    const p = run.progress();
    const stopped = Atomics.load(flags, STOP) !== 0 || Atomics.load(flags, STOP_ROLLOUT) !== 0;
    if (!stopped && lost && p.nodes >= lost.afterNodes && bestHomeOfAll() <= lost.bestHomeAtMost && Atomics.load(flags, ACTIVE) > 0)
      return prove(w, { nodes: p.nodes, bestHome: p.bestHome });
    if (stopped) return { role: 'rollout', proves: false, end: 'stopped', nodes: p.nodes, bestHome: p.bestHome, moves: null, inserted: 0 };
    const r = run.step(n);
    const q = r ?? run.progress();
    counted = count(w.slot, q.nodes, counted, q.bestHome);
    if (r) {
      const end: ThreadEnd = r.verdict === 'won' ? 'won' : r.limit === 'time' ? 'time' : r.limit === 'memory' ? 'memory' : 'nodes';
      return { role: 'rollout', proves: false, end, nodes: r.nodes, bestHome: r.bestHome, moves: r.moves, inserted: 0 };
    }
  }
}

/** The most cards home of any thread so far (their published progress). */
function bestHomeOfAll(): number {
  let best = 0;
  for (let i = 1; i < progress.length; i += 2) best = Math.max(best, progress[i]!);
  return best;
}

/** Publishes a thread's progress and adds its nodes since the last count to the shared count; returns the nodes counted. */
function count(slot: number, nodes: number, counted: number, bestHome: number): number {
  progress[2 * slot] = nodes;
  progress[2 * slot + 1] = bestHome;
  Atomics.add(shared, 0, BigInt(nodes - counted));
  return nodes;
}

function fail(code: number): never {
  throw new Error(`depth-first search ended with code ${code}`);
}
