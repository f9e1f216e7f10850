/**
 * `limited solve --threads T`: one deal on T cores (src/solver/parallel.ts). With T > 1 the
 * search is the prover on every thread (depth-first search on exact keys, LockBound at every
 * position, one shared table): the `prove` preset's search, and its budgets unless given; from
 * ROLLOUT_FROM threads on, the last thread starts as the rollout. A --preset other than prove, a
 * --search other than dfs, or a --heuristic has no meaning there and is refused (the request's
 * check, src/solver/request.ts). T = 1 is the ordinary solve, untouched.
 */
import { type Deal, type PackedMove, type Rules, UserError } from '../game/index.js';
import { type Progress, type SolveRequest, THREADS_PRESET, requestPlan } from '../solver/index.js';
import { type ParallelResult, MAX_THREADS, TableAllocationError, solveParallel } from '../solver/parallel.js';

/** `--threads 4`: a whole number from 1 to MAX_THREADS. Throws UserError. */
export function threadsFromFlag(text: string): number {
  const t = text.trim();
  const n = Number(t);
  if (!/^\d+$/.test(t) || n < 1 || n > MAX_THREADS) throw new UserError(`--threads must be a whole number from 1 to ${MAX_THREADS}, not '${text}'`);
  return n;
}

/**
 * From this many threads on, the last one starts as the rollout (to find wins early) and turns
 * helper when the deal looks lost: its cost on a lost deal, a thread's share until then, is a
 * quarter at most (docs/SOLVER.md, "One deal on every core").
 */
export const ROLLOUT_FROM = 4;

/** `--threads`'s help. */
export const THREADS_HELP =
  `solve on T threads, a whole number from 1 to ${MAX_THREADS} (default 1): with T > 1 each thread runs the ${THREADS_PRESET} preset's ` +
  `search from the root, breaking ties between moves its own way, on one shared table (from ${ROLLOUT_FROM} threads on, the last ` +
  `starts as the default preset's rollout, to find wins early, until the deal looks lost); the budgets are the ${THREADS_PRESET} preset's ` +
  `unless given, --max-nodes counts all threads' nodes, and --max-memory is the shared table, allocated at once ` +
  `(no --preset but ${THREADS_PRESET}, no --search but dfs, no --heuristic)`;

/** What `solve --help` says of --threads after the options. */
export const THREADS_EPILOGUE =
  'With --threads T > 1 the threads share one table of positions; a win by any thread is replayed\n' +
  "by the verifier; 'unsolvable' needs every thread's search exhausted (docs/SOLVER.md, \"One deal on\n" +
  'every core\"). Ctrl-C stops every thread.\n';

/** What `describeRequest` (cli/solver-flags.ts) says beside a solve on `threads` threads. */
export function threadsText(threads: number): string {
  return `on ${threads} threads (each a depth-first search from the root${threads >= ROLLOUT_FROM ? ', the last a rollout until the deal looks lost' : ''}, one shared table)`;
}

/**
 * Solves a checked request on its threads (`request.threads`, 2 or more), with the options
 * `requestPlan` gives for it, showing progress with `show`; SIGINT or SIGTERM stops every thread
 * and gives the result so far (unknown, 'interrupted'; the signal is returned). A second signal
 * before the threads have stopped ends the process at once, as the handlers are removed by the
 * first.
 */
export async function solveOnThreads(
  deal: Deal, rules: Rules, request: SolveRequest, show: ((p: Progress) => void) | null, from: readonly PackedMove[] = [],
): Promise<{ res: ParallelResult; signal: NodeJS.Signals | null }> {
  const threads = request.threads ?? 1;
  const abort = new AbortController();
  let signal: NodeJS.Signals | null = null;
  const stop = (s: NodeJS.Signals): void => {
    signal = s;
    abort.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const res = await solveParallel(deal, rules, requestPlan(request).options, { threads, from, rollout: threads >= ROLLOUT_FROM, signal: abort.signal, ...(show ? { onProgress: show } : {}) });
    return { res, signal };
  } catch (e) {
    if (e instanceof TableAllocationError) throw new UserError(`--max-memory: ${e.message}`);
    throw e;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
