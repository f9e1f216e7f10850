/**
 * The page's script, bundled with the engine and the solver (npm run build: dist/web/app.js).
 * The same script runs twice: in the page, where it draws the table and lets a person step
 * through a solution or play; and as the page's Web Worker (made from the script's own text
 * through a Blob URL, so that the page stays one file), where it runs the solver.
 */
import { App } from './app.js';
import { type WorkerAnswer, type WorkerQuestion } from './data.js';
import { type SearchRun, Solver, solveOutcome, startSolve } from '../solver/index.js';

interface WorkerScope {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}

/** Nodes a slice at least; and how long a slice runs before the worker looks for a newer question. */
const SLICE_NODES = 4096;
const SLICE_MS = 40;

/**
 * The worker: one solve at a time on a Solver kept from solve to solve, run in slices so that a
 * newer question (the player moved on) takes over between two slices instead of waiting for the
 * old search to end. With `patience`, a search whose only budget is time runs on past it: the
 * unknown at the budget is sent (not final), then the verdict when it comes.
 */
function workerMain(scope: WorkerScope): void {
  const solver = new Solver();
  let current = 0;
  // A message to ourselves: the next slice without setTimeout's clamping of nested timers.
  const tick = new MessageChannel();
  let next: (() => void) | null = null;
  tick.port1.onmessage = () => next?.();
  const fail = (r: WorkerQuestion, err: unknown): void =>
    scope.postMessage({ id: r.id, final: true, verdict: 'unknown', proof: null, limit: null, moves: null, nodes: 0, seconds: 0, error: err instanceof Error ? err.message : String(err) } satisfies WorkerAnswer);
  scope.onmessage = (e: MessageEvent) => {
    const r = e.data as WorkerQuestion & { cancel?: boolean };
    current = r.id;
    next = null;
    if (r.cancel) return;
    const budget = r.solver.maxSeconds;
    const longer = r.patience !== undefined && budget !== undefined && r.solver.maxNodes === undefined && r.patience > budget;
    let run: SearchRun;
    try {
      run = startSolve(solver, r.deal, r.rules, longer ? { ...r.solver, maxSeconds: r.patience } : r.solver, r.from);
    } catch (err) {
      return fail(r, err);
    }
    let nodes = 0;
    let said = false;
    // The time spent in this search's slices: its budget's clock (the solver's counts the same).
    let spent = 0;
    const slice = (): void => {
      if (current !== r.id) return;
      const t0 = performance.now();
      let res = null;
      try {
        while (!res && performance.now() < t0 + SLICE_MS) res = run.step((nodes += SLICE_NODES));
      } catch (err) {
        return fail(r, err);
      }
      spent += (performance.now() - t0) / 1000;
      if (res) {
        const { verdict, proof, limit, moves, seconds } = solveOutcome(res);
        scope.postMessage({ id: r.id, final: true, verdict, proof, limit, moves, nodes: res.nodes, seconds } satisfies WorkerAnswer);
        return;
      }
      if (longer && !said && spent >= budget) {
        said = true;
        scope.postMessage({ id: r.id, final: false, verdict: 'unknown', proof: null, limit: 'time', moves: null, nodes: run.progress().nodes, seconds: spent } satisfies WorkerAnswer);
      }
      next = slice;
      tick.port2.postMessage(null);
    };
    slice();
  };
}

if (typeof document === 'undefined') workerMain(self as unknown as WorkerScope);
else App.start();
